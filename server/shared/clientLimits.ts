/** Calls limited per client (a ClientLimit of server/attemptLimits.ts): per IP, and per Device-UUID when one is sent. */
import type { FastifyRequest } from 'fastify';
import { deviceSubject, ipSubject, type AttemptLimits, type ClientLimit, type RequestPolicy } from '../attemptLimits.ts';

/**
 * Counts a call per IP, then per Device-UUID when one is sent (IP first: a client over its IP limit
 * adds no rows with made-up device ids). The wait in seconds when over a limit, else 0.
 */
export async function clientWait(limits: AttemptLimits, request: FastifyRequest, limit: ClientLimit): Promise<number> {
  const perIp = await limits.countRequest(limit.perIp, ipSubject(request.ip));
  if (!perIp.allowed) return perIp.retryAfterSeconds;
  const device = deviceSubject(request.headers['device-uuid']);
  const perDevice = device ? await limits.countRequest(limit.perDevice, device) : perIp;
  return perDevice.allowed ? 0 : perDevice.retryAfterSeconds;
}

/** The wait in seconds when the client is already over the limit, else 0; counts nothing. */
export async function clientWaitSoFar(limits: AttemptLimits, request: FastifyRequest, limit: ClientLimit): Promise<number> {
  const counters: [RequestPolicy, string][] = [[limit.perIp, ipSubject(request.ip)]];
  const device = deviceSubject(request.headers['device-uuid']);
  if (device) counters.push([limit.perDevice, device]);
  return limits.requestWait(counters);
}
