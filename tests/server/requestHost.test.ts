/**
 * A request's Host and Expect, checked first by each server of the process (server/shared/requestHost.ts):
 * the answers Node gave itself without any security header now come through Fastify with them, and the
 * sandbox on loopback answers only to this machine's names, so a page that rebinds its own name to
 * 127.0.0.1 cannot take sessions or texted codes from it.
 */
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { buildCompanionHost } from '../../server/partners/companionHost.ts';
import { buildProcessorServer } from '../../server/partners/processor.ts';
import { demoCredentials, productionEnv, signIn, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let companion: FastifyInstance;
let processor: FastifyInstance;

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  companion = await buildCompanionHost(t.config, { appUrl: 'http://localhost:8080', logger: false });
  await companion.listen({ port: 0, host: '127.0.0.1' });
  processor = await buildProcessorServer(t.config, t.db, { appOrigins: ['http://localhost:8080'], logger: false });
  await processor.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await companion?.close();
  await processor?.close();
  await t?.close();
});

/** Raw bytes to a listening server, and its whole answer (each request below asks to close the connection). */
function rawAnswer(server: FastifyInstance, bytes: string): Promise<string> {
  const { port } = server.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    let answer = '';
    // Written, not ended: a server may close a half-closed connection before a slower answer is ready.
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error) => (answer === '' ? reject(error) : resolve(answer)));
  });
}

const servers = [
  ['the card app', () => t.app],
  ['the sandbox companion host', () => companion],
  ['the sandbox card processor', () => processor],
] as const;

describe.each(servers)('%s', (_name, server) => {
  it.each([
    // RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request
    // message that lacks a Host header field".
    ['an HTTP/1.1 request without Host', 'GET /home HTTP/1.1\r\nConnection: close\r\n\r\n', '400 Bad Request'],
    // RFC 9110 §10.1.1: an expectation other than 100-continue may be answered 417.
    ['an Expect other than 100-continue', 'GET /home HTTP/1.1\r\nHost: localhost\r\nExpect: something\r\nConnection: close\r\n\r\n', '417 Expectation Failed'],
  ])('answers %s with its security headers', async (_case, request, status) => {
    const head = (await rawAnswer(server(), request)).split('\r\n\r\n')[0] ?? '';

    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status}`);
    expect(head).toMatch(/^content-security-policy: .*frame-ancestors /im);
    expect(head).toMatch(/^x-content-type-options: nosniff$/im);
  });

  it('answers an HTTP/1.0 request without Host (it may leave it out) and 100-continue as usual (control)', async () => {
    const old = await rawAnswer(server(), 'GET /no-such-page HTTP/1.0\r\n\r\n');
    expect(old.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    const continued = await rawAnswer(server(), 'GET /no-such-page HTTP/1.1\r\nHost: localhost\r\nExpect: 100-Continue\r\nConnection: close\r\n\r\n');
    expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 404 Not Found\r\n/);
  });
});

describe('the request target and Host (RFC 9112 §3.2)', () => {
  it('answers a request with two Host headers 400: which one it names is unknowable', async () => {
    const answer = await rawAnswer(t.app, 'GET /api/v1/openapi.json HTTP/1.1\r\nHost: localhost\r\nHost: attacker.example\r\nConnection: close\r\n\r\n');

    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(answer).toMatch(/^content-security-policy: /im);
  });

  // §3.2.2: a server MUST accept the absolute form, and its authority stands for Host.
  it('reads an absolute-form target as its path: the same no-store, the same 404 for no call', async () => {
    const { access } = await signIn(t.app);
    const home = await rawAnswer(t.app, `GET http://localhost/api/v1/home HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${access}\r\nConnection: close\r\n\r\n`);
    expect(home.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(home).toMatch(/^cache-control: no-store$/im);

    const nowhere = await rawAnswer(t.app, 'GET http://localhost/api/v1/no-such-call HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(nowhere.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(nowhere.split('\r\n\r\n')[1]).toBe(JSON.stringify({ statusCode: StatusCode.NOT_ALLOWED }));
  });

  it("answers the sandbox on loopback by an absolute-form target's authority, not by Host", async () => {
    const rebound = await rawAnswer(t.app, 'GET http://attacker.example/sandbox/outbox HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');

    expect(rebound.split('\r\n')[0]).toBe('HTTP/1.1 421 Misdirected Request');
  });
});

describe('the sandbox on loopback, asked by another host name (DNS rebinding)', () => {
  const rebound = { host: 'attacker.example:8080', origin: 'http://attacker.example:8080' };

  it('gives no session for a cardholder, no texted code and no sign-in: 421 with the security headers', async () => {
    const answers = [
      await t.app.inject({ method: 'POST', url: '/sandbox/sessions', headers: rebound, payload: { email: 'demo@providers.test', accessTtlSeconds: 600 } }),
      await t.app.inject({ method: 'GET', url: '/sandbox/outbox', headers: rebound }),
      await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', headers: rebound, payload: demoCredentials }),
      await t.app.inject({ method: 'GET', url: '/home', headers: rebound }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(421);
      expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
      expect(answer.headers['content-security-policy']).toContain('frame-ancestors');
    }
  });

  it('gives no companion token, nor the processor pages', async () => {
    const token = await companion.inject({
      method: 'POST',
      url: '/companion/token',
      headers: { host: 'attacker.example:8090', origin: 'http://attacker.example:8090' },
      payload: { uuid: '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70', email: null },
    });
    expect(token.statusCode).toBe(421);
    const page = await processor.inject({ method: 'GET', url: '/', headers: { host: 'attacker.example' } });
    expect(page.statusCode).toBe(421);
  });

  it('refuses a Host that names no host at all (400)', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/config', headers: { host: 'a b:80' } });
    expect(answer.statusCode).toBe(400);
  });

  it.each(['localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'localhost', 'LOCALHOST:8080', 'localhost.:8080'])('answers %s as usual (control)', async (host) => {
    const answer = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', headers: { host }, payload: demoCredentials });
    expect(answer.statusCode).toBe(200);
  });

  it('answers any host name outside the sandbox, and in a sandbox made public (control)', async () => {
    for (const env of [productionEnv, { SANDBOX_PUBLIC: 'true', HOST: '0.0.0.0' }]) {
      const other = await startTestApp({ env });
      try {
        const answer = await other.app.inject({ method: 'GET', url: '/no-such-page', headers: { host: 'cards.example.com' } });
        expect(answer.statusCode).toBe(404);
      } finally {
        await other.close();
      }
    }
  });
});
