/** The small part of autocannon 8's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  type Histogram = {
    min: number;
    max: number;
    average: number;
    stddev: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  };
  export type AutocannonResult = {
    url: string;
    requests: Histogram & { sent: number };
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  };
  export type AutocannonOptions = {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    overallRate?: number;
    timeout?: number;
  };
  /** The returned tracker is an EventEmitter that is also a thenable for the result. */
  export type AutocannonInstance = import('node:events').EventEmitter & PromiseLike<AutocannonResult> & {
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): AutocannonInstance;
  };
  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
