/**
 * What every server of the process (the card app and, in the sandbox, the companion host and the card
 * processor) checks first of a request's Host and Expect, answered through Fastify so that the answer
 * carries that server's security headers. Node answers the first two itself, with no headers at all.
 * - An HTTP/1.1 request without Host: 400 (RFC 9112 §3.2).
 * - An expectation other than 100-continue: 417 (RFC 9110 §10.1.1).
 * - A sandbox listening on loopback only, asked for another host name: 421 (RFC 9110 §15.5.20). A page
 *   elsewhere whose name is made to point at 127.0.0.1 (DNS rebinding) would otherwise reach, as its own
 *   origin, the sandbox's sessions for any email and its texted codes.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isLoopback, type ServerConfig } from '../config.ts';

/** Fastify's options for it: Node leaves a request without Host to the hook below. */
export const hostHeaderOptions = { http: { requireHostHeader: false } };

/** The host name of a Host header (`localhost:8080`, `[::1]:8090`, `localhost.`: fully qualified), or null when it names none. */
function hostNameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** The checks on `server`, which was made with `hostHeaderOptions`; a refusal's body is the server's own `refusal`. */
export function registerHostChecks(server: FastifyInstance, config: ServerConfig, refusal: object): void {
  const refuse = (reply: FastifyReply, status: 400 | 417 | 421) => reply.code(status).send(refusal);
  // Unless someone listens, Node answers an expectation it cannot meet itself; Fastify gets it as any request.
  server.server.on('checkExpectation', (request, response) => server.server.emit('request', request, response));
  const loopbackOnly = config.sandbox && isLoopback(config.host);
  server.addHook('onRequest', async (request, reply) => {
    const { host, expect } = request.headers;
    // HTTP/1.0 may leave Host out; no browser does.
    if (host === undefined && request.raw.httpVersion !== '1.0') return refuse(reply, 400);
    if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') return refuse(reply, 417);
    if (loopbackOnly && host !== undefined) {
      const name = hostNameOf(host);
      if (name === null) return refuse(reply, 400);
      if (!isLoopback(name)) return refuse(reply, 421);
    }
  });
}
