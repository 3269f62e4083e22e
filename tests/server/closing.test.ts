/**
 * A request that arrives while the server closes (server/shared/closing.ts): answered 503 `{5}` with
 * the security headers, `Retry-After` and `Connection: close`. Fastify's own answer, written straight
 * to the socket, had none of the headers and a body with no spec §8 statusCode.
 */
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { demoCredentials, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { COMPANION_ORIGINS: 'http://localhost:8090' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

it('answers a request that arrives while it closes with 503 {5} and the security headers', async () => {
  const { port } = t.app.server.address() as AddressInfo;
  const body = JSON.stringify(demoCredentials);
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += String(chunk)));
  const ended = once(socket, 'close');
  await once(socket, 'connect');

  // A sign-in whose body is still on its way when the server starts closing: under way, so the
  // connection stays open, and a second request sent behind it on the same connection arrives after.
  const arrived = once(t.app.server, 'request');
  socket.write(`POST /api/v1/sign-in HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
  await arrived;
  const closed = t.app.close();
  // Fastify runs the preClose hooks, then stops listening.
  while (t.app.server.listening) await new Promise((resolve) => setImmediate(resolve));
  socket.write(`${body.slice(5)}GET /api/v1/home HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  await ended;
  await closed;

  const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  const [head = '', answer] = (second ?? '').split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
  expect(JSON.parse(answer ?? '')).toEqual({ statusCode: StatusCode.UNEXPECTED_ERROR });
  expect(/^content-security-policy: (.*)$/im.exec(head)?.[1]).toContain("frame-ancestors 'self' http://localhost:8090");
  expect(head).toMatch(/^x-content-type-options: nosniff$/im);
  expect(head).toMatch(/^cache-control: no-store$/im);
  expect(head).toMatch(/^retry-after: 1$/im);
  expect(head).toMatch(/^connection: close$/im);
});
