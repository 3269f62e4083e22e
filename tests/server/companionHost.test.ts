/**
 * The sandbox companion host server (server/partners/companionHost.ts): its page with the injected
 * configuration, its security headers, and the companion access tokens it issues, which the card
 * API's verifier accepts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCompanionToken } from '../../server/companionTokens.ts';
import { readConfig, type ServerConfig } from '../../server/config.ts';
import { buildCompanionHost, companionPagePath, injectCompanionConfig } from '../../server/partners/companionHost.ts';
import { capturedLog } from './helpers.ts';

const appPort = 8383;
const appUrl = `http://localhost:${appPort}`;
const testUser = { uuid: '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70', email: 'demo@providers.test' };

let webRoot: string;
let config: ServerConfig;
let host: FastifyInstance;

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), 'companion-host-'));
  const pageFile = path.join(webRoot, companionPagePath);
  mkdirSync(path.dirname(pageFile), { recursive: true });
  writeFileSync(pageFile, '<!doctype html><html><head><title>Benefits</title></head><body><iframe name="card-app"></iframe></body></html>');
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'assets', 'companion-host-abc123.js'), 'console.log("host");');
  writeFileSync(path.join(webRoot, 'assets', 'companion-host-abc123.js.br'), brotliCompressSync('console.log("host");'));
  config = readConfig({ SANDBOX: 'true', PORT: String(appPort), COMPANION_PORT: '8393', WEB_ROOT: webRoot });
  host = await buildCompanionHost(config, { appUrl, logger: false });
  await host.ready();
});
afterAll(async () => {
  await host?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const issue = (payload: unknown) => host.inject({ method: 'POST', url: '/companion/token', payload: payload as object });

function directives(response: LightMyRequestResponse): string[] {
  return String(response.headers['content-security-policy'] ?? '')
    .split(';')
    .map((directive) => directive.trim());
}

describe('POST /companion/token', () => {
  it('issues a companion access token the card API verifier accepts, with uuid and email', async () => {
    const response = await issue(testUser);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { accessToken } = response.json<{ accessToken: string }>();
    expect(accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const check = await verifyCompanionToken(accessToken, config.companionTokenSecret);
    expect(check).toEqual({ ok: true, claims: { uuid: testUser.uuid, email: testUser.email, ebtAccountId: null } });
  });

  it('names the EBT account the companion app linked, when it has one', async () => {
    const response = await issue({ ...testUser, ebtAccountId: 'EBT-4417-2209' });
    expect(response.statusCode, response.body).toBe(200);
    const check = await verifyCompanionToken(response.json<{ accessToken: string }>().accessToken, config.companionTokenSecret);
    expect(check).toEqual({ ok: true, claims: { uuid: testUser.uuid, email: testUser.email, ebtAccountId: 'EBT-4417-2209' } });
  });

  it('issues a token without an email when email is null', async () => {
    const response = await issue({ uuid: testUser.uuid, email: null });
    expect(response.statusCode, response.body).toBe(200);
    const check = await verifyCompanionToken(response.json<{ accessToken: string }>().accessToken, config.companionTokenSecret);
    expect(check).toEqual({ ok: true, claims: { uuid: testUser.uuid, email: null, ebtAccountId: null } });
  });

  it('is refused by the verifier when signed with another secret (control for the checks above)', async () => {
    const { accessToken } = (await issue(testUser)).json<{ accessToken: string }>();
    const other = new TextEncoder().encode('another-companion-secret-of-at-least-32-characters');
    expect(await verifyCompanionToken(accessToken, other)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('makes a short-lived token with ttlSeconds that the verifier refuses as expired once it has passed', async () => {
    // The clock is set, not waited on: exp is in whole seconds, so a real wait races the second boundary.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const issuedAt = Date.parse('2026-03-01T12:00:00.000Z');
      vi.setSystemTime(issuedAt);
      const response = await issue({ ...testUser, ttlSeconds: 1 });
      expect(response.statusCode, response.body).toBe(200);
      const { accessToken } = response.json<{ accessToken: string }>();
      expect((await verifyCompanionToken(accessToken, config.companionTokenSecret)).ok).toBe(true);
      vi.setSystemTime(issuedAt + 999);
      expect((await verifyCompanionToken(accessToken, config.companionTokenSecret)).ok).toBe(true);
      vi.setSystemTime(issuedAt + 1_000);
      expect(await verifyCompanionToken(accessToken, config.companionTokenSecret)).toEqual({ ok: false, reason: 'expired' });
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['no uuid', { email: testUser.email }],
    ['an empty uuid', { uuid: '', email: testUser.email }],
    ['a uuid that is not a string', { uuid: 42, email: testUser.email }],
    ['a uuid with other characters', { uuid: 'a b<c>', email: testUser.email }],
    ['no email key', { uuid: testUser.uuid }],
    ['an email that is not a string', { uuid: testUser.uuid, email: 7 }],
    ['a ttlSeconds of 0', { ...testUser, ttlSeconds: 0 }],
    ['a ttlSeconds over an hour', { ...testUser, ttlSeconds: 3601 }],
    ['a fractional ttlSeconds', { ...testUser, ttlSeconds: 1.5 }],
    ['a ttlSeconds given as a string', { ...testUser, ttlSeconds: '60' }],
    ['an unknown key', { ...testUser, admin: true }],
    ['an array body', [testUser]],
  ])('answers 400 for %s', async (_name, payload) => {
    const response = await issue(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).not.toContain('accessToken');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await host.inject({
      method: 'POST',
      url: '/companion/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"uuid":',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('security headers', () => {
  const requests = {
    'the page': () => host.inject({ method: 'GET', url: '/' }),
    'an asset': () => host.inject({ method: 'GET', url: '/assets/companion-host-abc123.js' }),
    'a token': () => issue(testUser),
    'a 400': () => issue({}),
    'a 404': () => host.inject({ method: 'GET', url: '/no-such-page' }),
    // Fastify answers it before any hook: the headers come from its frameworkErrors option.
    'a URL that does not decode': () => host.inject({ method: 'GET', url: '/%' }),
  };

  it.each(Object.entries(requests))('sends the companion host CSP, nosniff and the referrer policy on %s', async (_name, request) => {
    const response = await request();
    const policy = directives(response);
    expect(policy).toContain(`frame-src ${appUrl}`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // Cross-origin navigations carry the host's origin: the framed app reads it from document.referrer.
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('frames only the app origin given (not the configured default port)', async () => {
    const other = await buildCompanionHost(config, { appUrl: 'http://localhost:9999/some/path', logger: false });
    const response = await other.inject({ method: 'GET', url: '/' });
    await other.close();
    const frameSrc = directives(response).filter((directive) => directive.startsWith('frame-src'));
    expect(frameSrc).toEqual(['frame-src http://localhost:9999']);
  });
});

describe('GET /', () => {
  it('serves the built page with the configuration injected before </head>, not cached', async () => {
    const response = await host.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const element = `<script id="companion-config" type="application/json">${JSON.stringify({ appUrl })}</script>`;
    expect(response.body).toContain(`${element}\n</head>`);
    expect(response.body).toContain('<iframe name="card-app">');
  });

  it('serves hashed assets from the web root, cached as immutable', async () => {
    const response = await host.inject({ method: 'GET', url: '/assets/companion-host-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("host");');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toBe('accept-encoding');
    // The build's brotli copy to a browser that takes it (vite.config.ts precompressed).
    const compressed = await host.inject({ method: 'GET', url: '/assets/companion-host-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe('console.log("host");');
    expect((await host.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await host.inject({ method: 'GET', url: '/assets/../server/partners/companion-host/index.html' })).statusCode).toBe(404);
  });

  it('answers 503 with a hint when the page is not built', async () => {
    const bare = await buildCompanionHost({ ...config, webRoot: path.join(webRoot, 'missing') }, { appUrl, logger: false });
    const response = await bare.inject({ method: 'GET', url: '/' });
    await bare.close();
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npx vite build');
  });
});

describe('injectCompanionConfig', () => {
  it('escapes "<" so a value cannot close the script element', () => {
    const html = injectCompanionConfig('<html><head></head><body></body></html>', { appUrl: 'http://x/</script><script>alert(1)</script>' });
    expect(html).not.toContain('</script><script>');
    expect(html).toContain('\\u003c/script>');
    const json = /<script id="companion-config" type="application\/json">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json!)).toEqual({ appUrl: 'http://x/</script><script>alert(1)</script>' });
  });
});

describe('its log', () => {
  it('names the path a request asked for without its query (whatever was typed after the ? stays out)', async () => {
    const { lines, stream } = capturedLog();
    const logged = await buildCompanionHost(config, { appUrl, logStream: stream });
    try {
      const page = await logged.inject({ method: 'GET', url: '/?email=ana.lopez%40example.com&phone=5592017788' });
      expect(page.statusCode).toBe(200);
    } finally {
      await logged.close();
    }
    const requests = lines.map((line) => JSON.parse(line) as { req?: { url: string } }).filter((line) => line.req);
    expect(requests.map((line) => line.req!.url)).toEqual(['/']);
    expect(lines.join('')).not.toMatch(/ana\.lopez|5592017788/);
  });
});
