/**
 * A request as the servers log it (the card API, and the sandbox's processor and companion host): its
 * path without the query, which can carry personal data (a registration link's profile: name, date of
 * birth, email, phone, address) or a token (the processor's pages).
 */
export const requestLogged = (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
  method: request.method,
  url: request.url.split('?')[0],
  host: request.hostname,
  remoteAddress: request.ip,
});

/** What a sandbox partner's server (the processor, the companion host) takes for its log. */
export type PartnerLogOptions = {
  logger?: boolean;
  /** Receives the request logs instead of stdout (tests read what would be logged). */
  logStream?: NodeJS.WritableStream;
};

/** A sandbox partner server's logger: bodies redacted, requests logged as the card API's are. */
export const partnerLogger = (level: string, options: PartnerLogOptions) =>
  options.logger === false
    ? false
    : {
        level,
        redact: ['req.body', 'res.body'],
        serializers: { req: requestLogged },
        ...(options.logStream ? { stream: options.logStream } : {}),
      };
