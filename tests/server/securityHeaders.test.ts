import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../contract/routes.ts';
import { cardApiBase, fillPath } from '../../contract/shared/route.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { inlineStyleHashes } from '../../server/securityHeaders.ts';
import { demoCredentials, productionEnv, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ env: { COMPANION_ORIGINS: 'http://localhost:8090' } });
});
afterAll(async () => {
  await t?.close();
});

const requests = {
  'a successful API answer': () => t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: demoCredentials }),
  'an API 401': () => t.app.inject({ method: 'GET', url: '/api/v1/home' }),
  'an API 400': () => t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: {} }),
  'an API 404': () => t.app.inject({ method: 'GET', url: '/api/v1/no-such-call' }),
  'a 404 outside the API': () => t.app.inject({ method: 'GET', url: '/no-such-page' }),
};

function csp(response: LightMyRequestResponse): string {
  return String(response.headers['content-security-policy'] ?? '');
}

describe('security headers', () => {
  it('answers the expected status for each request below (control)', async () => {
    expect((await requests['a successful API answer']()).statusCode).toBe(200);
    expect((await requests['an API 401']()).statusCode).toBe(401);
    expect((await requests['an API 400']()).statusCode).toBe(400);
    const notFound = await requests['an API 404']();
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
    expect((await requests['a 404 outside the API']()).statusCode).toBe(404);
  });

  it.each(Object.entries(requests))('sends a Content-Security-Policy on %s', async (_name, request) => {
    const policy = csp(await request());

    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  it.each(Object.entries(requests))('allows framing only by the app itself, the companion origins and their dev ports on %s', async (_name, request) => {
    const directives = csp(await request()).split(';').map((directive) => directive.trim());

    expect(directives).toContain("frame-ancestors 'self' http://localhost:8090 http://localhost:5173 http://127.0.0.1:5173");
  });

  it.each(Object.entries(requests))('sends nosniff and no-referrer on %s', async (_name, request) => {
    const response = await request();

    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('sends no Strict-Transport-Security to localhost (plain HTTP during development)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/home', headers: { host: 'localhost:8080' } });

    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends Strict-Transport-Security over HTTPS to a public host name: through a proxy listed in TRUST_PROXY that says so', async () => {
    // Outside the sandbox: the sandbox on loopback answers no other host name (tests/server/requestHost).
    // Injected requests come from 127.0.0.1: here the listed proxy.
    const production = await startTestApp({ env: { ...productionEnv, TRUST_PROXY: '127.0.0.1' } });
    try {
      const overHttps = { host: 'cards.example.com', 'x-forwarded-proto': 'https' };
      const apiAnswer = await production.app.inject({ method: 'GET', url: '/api/v1/home', headers: overHttps });
      const notFound = await production.app.inject({ method: 'GET', url: '/no-such-page', headers: overHttps });

      expect([apiAnswer.statusCode, notFound.statusCode]).toEqual([401, 404]);
      for (const response of [apiAnswer, notFound]) {
        expect(response.headers['strict-transport-security']).toMatch(/^max-age=(\d+)/);
        const maxAge = Number(/max-age=(\d+)/.exec(String(response.headers['strict-transport-security']))![1]);
        expect(maxAge).toBeGreaterThanOrEqual(31_536_000);
      }
      // RFC 6797 §7.2: never over plain HTTP.
      const overHttp = await production.app.inject({ method: 'GET', url: '/api/v1/home', headers: { host: 'cards.example.com', 'x-forwarded-proto': 'http' } });
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await production.close();
    }
  });

  it('sends no Strict-Transport-Security over plain HTTP, whatever a client not listed as a proxy says of its transport', async () => {
    const production = await startTestApp({ env: productionEnv });
    try {
      for (const headers of [{ host: 'cards.example.com' }, { host: 'cards.example.com', 'x-forwarded-proto': 'https' }]) {
        const response = await production.app.inject({ method: 'GET', url: '/api/v1/home', headers });
        expect(response.statusCode).toBe(401);
        expect(response.headers['strict-transport-security']).toBeUndefined();
      }
    } finally {
      await production.close();
    }
  });
});

describe('answers Node gives before Fastify has a request', () => {
  /**
   * Sends raw bytes to the listening app and reads its whole answer (it closes the connection). A reset
   * after the answer (the server closed with our bytes still unread) ends it too.
   */
  function rawAnswer(bytes: string): Promise<string> {
    const address = t.app.server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      let answer = '';
      const socket = connect(address.port, '127.0.0.1', () => socket.end(bytes));
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.on('close', () => resolve(answer));
      socket.on('error', (error) => (answer === '' ? reject(error) : resolve(answer)));
    });
  }

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it.each([
    // Node's default limit for a request's headers is 16 KiB: RFC 6585 §5's 431.
    ['headers over the size limit', `GET /api/v1/home HTTP/1.1\r\nHost: localhost\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    // Not an HTTP request line (RFC 9112 §3).
    ['a broken request line', 'NOT HTTP\r\n\r\n', 400],
  ])('answers %s with the security headers and no cause', async (_name, request, status) => {
    const answer = await rawAnswer(request);
    const [head = '', body] = answer.split('\r\n\r\n');

    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
    const policy = /^content-security-policy: (.*)$/im.exec(head)?.[1] ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'self' http://localhost:8090");
    expect(head).toMatch(/^x-content-type-options: nosniff$/im);
    expect(head).toMatch(/^cache-control: no-store$/im);
    // RFC 9110 §6.6.1: a server with a clock sends Date, on these too.
    const date = /^date: (.*)$/im.exec(head)?.[1] ?? '';
    expect(new Date(date).toUTCString()).toBe(date);
    expect(JSON.parse(body ?? '')).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });
});

describe('frame-ancestors from the configured origins', () => {
  let custom: TestApp;

  beforeAll(async () => {
    custom = await startTestApp({
      env: {
        COMPANION_ORIGINS: 'https://benefits.example.org, https://partner.example.net',
        DEV_ORIGINS: 'http://localhost:5174',
        CMS_PREVIEW_ORIGINS: 'https://preview.cms.example',
        TEST_RUNNER_ORIGINS: 'http://localhost:4173,https://benefits.example.org',
        PROCESSOR_ORIGINS: 'https://pin.processor.example',
        ACCOUNT_LINKING_ORIGINS: 'https://link.example.net',
      },
    });
  });
  afterAll(async () => {
    await custom?.close();
  });

  it('lists companion, dev, CMS preview and test runner origins once each, and only those', async () => {
    const response = await custom.app.inject({ method: 'GET', url: '/api/v1/home' });
    const directives = csp(response).split(';').map((directive) => directive.trim());

    expect(directives).toContain(
      "frame-ancestors 'self' https://benefits.example.org https://partner.example.net http://localhost:5174 https://preview.cms.example http://localhost:4173",
    );
    expect(csp(response)).not.toContain('localhost:8090');
    // The processor and account-linking pages are framed by the app, never the other way round.
    const ancestors = directives.find((directive) => directive.startsWith('frame-ancestors')) ?? '';
    expect(ancestors).not.toContain('pin.processor.example');
    expect(ancestors).not.toContain('link.example.net');
    expect(directives).toContain("frame-src 'self' https://pin.processor.example https://link.example.net");
  });

  it('allows only the app itself outside sandbox mode when no origins are configured', async () => {
    const production = await startTestApp({ env: { ...productionEnv, COMPANION_ORIGINS: undefined } });
    try {
      const response = await production.app.inject({ method: 'GET', url: '/api/v1/home' });

      expect(csp(response).split(';').map((directive) => directive.trim())).toContain("frame-ancestors 'self'");
    } finally {
      await production.close();
    }
  });
});

describe('no cache keeps an API answer', () => {
  // Every call of the card API's route tables (new calls are covered as they are added), answered
  // with whatever its empty request gets, plus the sandbox, an unknown call and a sign-in with tokens.
  const calls = allRoutes
    .filter((route) => route.base === cardApiBase)
    .map((route) => [`${route.method} ${route.path}`, route.method, `${route.base}${fillPath(route.path, { id: '1' })}`] as const);
  const more = [
    ['an unknown API call', 'GET', '/api/v1/no-such-call'],
    ['the sandbox outbox', 'GET', '/sandbox/outbox?phone=5592010100'],
    // The router decodes the path: an encoded letter still reaches the API, and must not be cached.
    ['home with an encoded letter', 'GET', '/%61pi/v1/home'],
    ['the sandbox with an encoded letter', 'GET', '/%73andbox/outbox?phone=5592010100'],
  ] as const;

  it('covers every card API call (control)', () => {
    expect(calls.length).toBeGreaterThan(20);
  });

  it.each([...calls, ...more])('sends Cache-Control: no-store and Pragma: no-cache on %s', async (_name, method, url) => {
    const response = await t.app.inject({ method, url, ...(method === 'POST' && { payload: {} }) });
    expect(response.statusCode).toBeLessThan(500);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  });

  it('sends them with a session\'s tokens', async () => {
    const response = await requests['a successful API answer']();
    expect(response.json()).toHaveProperty('access');
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('inlineStyleHashes', () => {
  it('hashes each inline <style> of a page, and nothing for a page without one', () => {
    const page = '<head><style>a{color:red}</style><style>\nb > i { color: blue }\n</style></head>';

    expect(inlineStyleHashes(page)).toEqual([
      `'sha256-${createHash('sha256').update('a{color:red}').digest('base64')}'`,
      `'sha256-${createHash('sha256').update('\nb > i { color: blue }\n').digest('base64')}'`,
    ]);
    expect(inlineStyleHashes('<head><link rel="stylesheet" href="/a.css"></head>')).toEqual([]);
  });
});
