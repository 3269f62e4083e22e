/**
 * What every server of the process (the card app and, in the sandbox, the companion host and the card
 * processor) checks first of a request's target, Host and Expect, answered through Fastify so that the
 * answer carries that server's security headers. Node answers the first two itself, with no headers at all.
 * - An HTTP/1.1 request without Host, or with two: 400 (RFC 9112 §3.2).
 * - A target in absolute form (`GET http://localhost:8080/api/v1/home`, which a server MUST accept: RFC
 *   9112 §3.2.2) is read by its path, as in origin form, and its authority stands for Host.
 * - An expectation other than 100-continue: 417 (RFC 9110 §10.1.1).
 * - A sandbox listening on loopback only, asked for another host name: 421 (RFC 9110 §15.5.20). A page
 *   elsewhere whose name is made to point at 127.0.0.1 (DNS rebinding) would otherwise reach, as its own
 *   origin, the sandbox's sessions for any email and its texted codes.
 */
import type { FastifyInstance, FastifyReply, RawRequestDefaultExpression } from 'fastify';
import { isLoopback, type ServerConfig } from '../config.ts';

/** The path and query of an absolute-form target; any other target as it is (`*`, origin form). */
function originForm(target: string): string {
  if (!/^https?:\/\//i.test(target)) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return target;
  }
}

/**
 * Fastify's options for it: Node leaves a request without Host to the hook below, and the path of an
 * absolute-form target is what every route, hook and header rule reads as `request.url` (the router
 * found the route by it already, but the rules that read `/api/…` in the URL did not).
 */
export const requestTargetOptions = {
  http: { requireHostHeader: false },
  rewriteUrl: (request: RawRequestDefaultExpression) => originForm(request.url ?? '/'),
};

/** The authority a request names: its absolute-form target's, which stands for Host (RFC 9112 §3.2.2), else Host. */
function authorityOf(target: string, host: string | undefined): string | undefined {
  if (originForm(target) === target) return host;
  try {
    return new URL(target).host;
  } catch {
    return host;
  }
}

/** The host name of a Host header (`localhost:8080`, `[::1]:8090`, `localhost.`: fully qualified), or null when it names none. */
function hostNameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** The checks on `server`, which was made with `requestTargetOptions`; a refusal's body is the server's own `refusal`. */
export function registerHostChecks(server: FastifyInstance, config: ServerConfig, refusal: object): void {
  const refuse = (reply: FastifyReply, status: 400 | 417 | 421) => reply.code(status).send(refusal);
  // Unless someone listens, Node answers an expectation it cannot meet itself; Fastify gets it as any request.
  server.server.on('checkExpectation', (request, response) => server.server.emit('request', request, response));
  const loopbackOnly = config.sandbox && isLoopback(config.host);
  server.addHook('onRequest', async (request, reply) => {
    const { host, expect } = request.headers;
    // HTTP/1.0 may leave Host out; no browser does. Node keeps the first of two and drops the other.
    if (host === undefined && request.raw.httpVersion !== '1.0') return refuse(reply, 400);
    if (request.raw.rawHeaders.filter((name, i) => i % 2 === 0 && name.toLowerCase() === 'host').length > 1) return refuse(reply, 400);
    if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') return refuse(reply, 417);
    const authority = authorityOf(request.originalUrl, host);
    if (loopbackOnly && authority !== undefined) {
      const name = hostNameOf(authority);
      if (name === null) return refuse(reply, 400);
      if (!isLoopback(name)) return refuse(reply, 421);
    }
  });
}
