/**
 * A request that still arrives while the server closes (pipelined, or on a connection kept alive) is
 * answered 503 with `answer` through the reply, so the security headers come with it (CSP and
 * frame-ancestors on every answer) and the body has a spec §8 statusCode. Fastify's own answer
 * (`return503OnClosing`, turned off where the app is built) is written straight to the socket: no
 * headers of ours, and `{"statusCode":503,…}`, which the app read as a refusal with code 503.
 */
import type { FastifyInstance } from 'fastify';

export function answerWhileClosing(app: FastifyInstance, answer: object): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    // Sent elsewhere (another instance behind the load balancer, or this one restarted).
    return reply.code(503).header('Connection', 'close').header('Retry-After', '1').send(answer);
  });
}
