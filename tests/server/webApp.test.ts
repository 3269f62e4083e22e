/** The built app's index.html, served with the runtime app config the server injects (contract/shared/appConfig.ts). */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppConfig, appConfigElementId } from '../../contract/shared/appConfig.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { injectAppConfig } from '../../server/app.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/** As the build writes it: the app's stylesheet inlined (vite.config.ts stylesheetInline). */
const inlineCss = ':root{color:#1b1f1d}.splash>p{font-weight:700}';
const rawIndex = `<!doctype html><html lang="en"><head><meta name="description" content="Providers prepaid debit account and card" /><title>Providers card</title><style>${inlineCss}</style></head><body><div id="loader-overlay" role="status" aria-label="Loading"></div><div id="root"></div></body></html>`;

/** A script large enough to be worth compressing (over the 1 KB threshold). */
const viewScript = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, index) => ({ index, label: `row ${index}` })))};`;

/** The build's copies, at the build's settings (brotli's best quality, gzip level 9), not those of compression per request. */
const buildCopies = {
  br: brotliCompressSync(viewScript, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
  gzip: gzipSync(viewScript, { level: constants.Z_BEST_COMPRESSION }),
};

let webRoot: string;
let t: TestApp;

beforeAll(async () => {
  webRoot = mkdtempSync(path.join(tmpdir(), 'web-root-'));
  writeFileSync(path.join(webRoot, 'index.html'), rawIndex);
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log("app");');
  // As the build writes every script and stylesheet (vite.config.ts precompressed).
  writeFileSync(path.join(webRoot, 'assets', 'view-def456.js'), viewScript);
  writeFileSync(path.join(webRoot, 'assets', 'view-def456.js.br'), buildCopies.br);
  writeFileSync(path.join(webRoot, 'assets', 'view-def456.js.gz'), buildCopies.gzip);
  // A file the build did not compress (public/, or too small): compressed as it is sent.
  writeFileSync(path.join(webRoot, 'sw.js'), viewScript);
  mkdirSync(path.join(webRoot, 'server', 'partners', 'companion-host'), { recursive: true });
  writeFileSync(path.join(webRoot, 'server', 'partners', 'companion-host', 'index.html'), '<title>Companion host</title>');
  mkdirSync(path.join(webRoot, '.vite'));
  writeFileSync(path.join(webRoot, '.vite', 'manifest.json'), '{"index.html":{"file":"assets/index-abc123.js"}}');
  t = await startTestApp({
    webRoot,
    env: {
      SANDBOX: 'true',
      COMPANION_ORIGINS: 'https://benefits.example.org',
      DEV_ORIGINS: 'http://localhost:5173',
      PROCESSOR_ORIGINS: 'https://pin.processor.example',
      ACCOUNT_LINKING_ORIGINS: 'https://link.example.net',
      CMS_PREVIEW_ORIGINS: 'https://preview.cms.example',
      TEST_RUNNER_ORIGINS: 'http://localhost:4173',
    },
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

const expectedConfig: AppConfig = {
  sandbox: true,
  hostOrigins: ['https://benefits.example.org', 'http://localhost:5173'],
  processorOrigins: ['https://pin.processor.example'],
  accountLinkingOrigins: ['https://link.example.net'],
  cmsPreviewOrigins: ['https://preview.cms.example'],
  testRunnerOrigins: ['http://localhost:4173'],
};

/** The JSON inside `<script id="app-config" type="application/json">`, as the app reads it. */
function appConfigIn(html: string): unknown {
  const match = new RegExp(`<script id="${appConfigElementId}" type="application/json">(.*?)</script>`).exec(html);
  if (!match) throw new Error(`no app config in ${html}`);
  return JSON.parse(match[1]!);
}

function get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers });
}

describe('index.html with the app config', () => {
  it.each(['/', '/index.html', '/home', '/register/personal?profile=%7B%7D'])('serves %s with the configured origins before </head>', async (url) => {
    const response = await get(url);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(response.body).toContain('<title>Providers card</title>');
    expect(response.body).toMatch(new RegExp(`<script id="${appConfigElementId}" type="application/json">[^<]*</script></head>`));
    expect(appConfigIn(response.body)).toEqual(expectedConfig);
  });

  const english = { label: 'Loading', title: 'Providers card', description: 'Providers prepaid debit account and card' };
  const spanish = { label: 'Cargando', title: 'Tarjeta Providers', description: 'Cuenta prepagada y tarjeta de débito Providers' };
  it.each([
    [undefined, 'en', english],
    ['en-US,en;q=0.9', 'en', english],
    ['es-MX,es;q=0.9,en;q=0.8', 'es', spanish],
    ['en;q=0.5, es', 'es', spanish],
    ['fr-CA, es;q=0.5', 'es', spanish],
    ['es;q=0, en', 'en', english],
    ['en;q=0, *', 'es', spanish],
  ])('for Accept-Language %s: <html lang="%s">, and the splash, title and description in it', async (accepted, locale, words) => {
    const response = await get('/home', accepted === undefined ? {} : { 'accept-language': accepted });

    expect(response.body).toContain(`<html lang="${locale}">`);
    expect(response.body).toContain(`<div id="loader-overlay" role="status" aria-label="${words.label}">`);
    expect(response.body).toContain(`<title>${words.title}</title>`);
    expect(response.body).toContain(`<meta name="description" content="${words.description}" />`);
    expect(response.headers['content-language']).toBe(locale);
    expect(String(response.headers.vary).split(/, */)).toContain('accept-language');
  });

  it('gives each language its own ETag, so a cache never answers one with the other', async () => {
    const english = await get('/', { 'accept-language': 'en' });
    const spanish = await get('/', { 'accept-language': 'es' });
    expect(english.headers.etag).not.toBe(spanish.headers.etag);

    const notModified = await get('/', { 'accept-language': 'es', 'if-none-match': String(spanish.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    // The 304 varies as the 200 does (RFC 9110 §15.4.5).
    const varies = (response: LightMyRequestResponse) => String(response.headers.vary).split(/, */).sort();
    expect(varies(notModified)).toEqual(varies(await get('/', { 'accept-language': 'es', 'accept-encoding': 'br' })));
    expect(varies(notModified)).toEqual(['accept-encoding', 'accept-language']);
    expect((await get('/', { 'accept-language': 'es', 'if-none-match': String(english.headers.etag) })).statusCode).toBe(200);
  });

  it.each(['/', '/cards'])('answers a HEAD of %s like the GET', async (url) => {
    const response = await t.app.inject({ method: 'HEAD', url });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers.etag).toBe((await get(url)).headers.etag);
  });

  // RFC 9110 §15.5.6 (405 names the methods taken) and §9.3.7 (OPTIONS names them).
  it.each([
    ['POST', '/', 405],
    ['DELETE', '/home', 405],
    ['PUT', '/register/personal', 405],
    ['OPTIONS', '/signin', 204],
    ['POST', '/index.html', 405],
    ['POST', '/%69ndex.html', 405],
  ] as const)('answers %s %s %i with Allow: GET, HEAD, OPTIONS (an app page takes GET only)', async (method, url, status) => {
    const response = await t.app.inject({ method, url });

    expect(response.statusCode).toBe(status);
    expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['content-security-policy']).toBeTruthy();
    if (status === 405) expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('answers a file that is not there, and an API path that is no call, 404 whatever the method', async () => {
    // The API's paths as the router reads them: `/%61pi/…` is `/api/…`, and `/api` itself is no page.
    for (const url of ['/assets/none.js', '/%61pi/v1/nothing', '/api']) {
      for (const method of ['GET', 'POST'] as const) expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('answers 304 to a revalidation with the current ETag', async () => {
    const first = await get('/');
    const etag = String(first.headers.etag);

    const again = await get('/home', { 'if-none-match': etag });

    expect(etag).toMatch(/^W\/".+"$/);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  // RFC 9110 §13.1.2: If-None-Match is `*` or a list, compared weakly.
  it.each([
    ['a list naming it', (etag: string) => `"something-else", ${etag}`],
    ['*', () => '*'],
    ['its strong form', (etag: string) => etag.replace(/^W\//, '')],
  ])('answers 304 to an If-None-Match of %s', async (_form, ifNoneMatch) => {
    const etag = String((await get('/')).headers.etag);

    expect((await get('/', { 'if-none-match': ifNoneMatch(etag) })).statusCode).toBe(304);
    expect((await get('/', { 'if-none-match': '"something-else", W/"another"' })).statusCode).toBe(200);
  });

  it('answers a range past the end of a file 416 with its length in Content-Range (RFC 9110 §15.5.17)', async () => {
    const response = await get('/assets/index-abc123.js', { range: 'bytes=999999-' });

    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${'console.log("app");'.length}`);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('still serves other files and answers unknown API paths with a statusCode', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');

    const api = await get('/api/v1/no-such-call');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  // RFC 9110 §12.5.3: the coding is the first the request accepts, by its q-values, among those the
  // server has; `identity` is always acceptable unless refused; `*` stands for any coding not named.
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip;q=1.0', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    ['', undefined],
  ] as const)('sends the copy the build compressed for Accept-Encoding "%s" (%s)', async (accepted, coding) => {
    const asset = await get('/assets/view-def456.js', { 'accept-encoding': accepted });

    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe(coding);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(asset.headers.vary).toLowerCase().split(/,\s*/)).toEqual(['accept-encoding']);
    // The build's file itself: nothing compressed again.
    expect(asset.rawPayload).toEqual(coding ? buildCopies[coding] : Buffer.from(viewScript));
  });

  it('compresses a file the build did not compress as it sends it', async () => {
    const worker = await get('/sw.js', { 'accept-encoding': 'br' });

    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-encoding']).toBe('br');
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(String(worker.headers.vary).toLowerCase().split(/,\s*/)).toEqual(['accept-encoding']);
    expect(brotliDecompressSync(worker.rawPayload).toString()).toBe(viewScript);
  });

  it('does not serve the sandbox companion host page on the app origin (it has its own)', async () => {
    for (const url of ['/server/partners/companion-host/index.html', '//server/partners/companion-host/index.html', '/./server/partners/companion-host/index.html', '/%73erver/partners/companion-host/index.html']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(404);
      expect(page.body, url).not.toContain('Companion host');
    }
  });

  it('never serves index.html without the app config, whatever the path that reaches it', async () => {
    for (const url of ['//index.html', '/./index.html', '/%2findex.html', '/assets/..%2findex.html', '/assets/../index.html', '/%69ndex.html']) {
      const page = await get(url);
      if (page.statusCode === 200) expect(page.body, url).toContain(appConfigElementId);
      else expect(page.statusCode, url).toBe(404);
    }
  });

  it("does not serve the build's manifest (build metadata: the bench reads it from disk, no page needs it)", async () => {
    for (const url of ['/.vite/manifest.json', '/assets/../.vite/manifest.json', '/%2Evite/manifest.json']) {
      const manifest = await get(url);
      expect(manifest.statusCode, url).toBe(404);
      expect(manifest.body, url).not.toContain('index-abc123');
    }
  });

  it('lets the app frame only itself, the processor and the account-linking provider', async () => {
    const policy = String((await get('/home')).headers['content-security-policy']);
    expect(policy.split(';').map((directive) => directive.trim())).toContain(
      "frame-src 'self' https://pin.processor.example https://link.example.net",
    );
  });
});

describe('app config escaping', () => {
  // Origins from the environment cannot hold `<` (URL parsing refuses it), so the escaping is tested directly.
  it('writes `<` as \\u003c so no value can end the script element', () => {
    const hostile = { ...expectedConfig, cmsPreviewOrigins: ['</script><script>alert(1)</script>'] };

    const html = injectAppConfig(rawIndex, hostile);

    expect(html).not.toContain('</script><script>');
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(appConfigIn(html)).toEqual(hostile);
  });
});

describe('static files asked for wrongly', () => {
  it.each([
    ['a range past the end', '/assets/index-abc123.js', { range: 'bytes=9999-10000' }],
    ['a malformed range', '/assets/index-abc123.js', { range: 'bytes=abc' }],
    ['a failed If-Match', '/assets/index-abc123.js', { 'if-match': '"not-this-one"' }],
    ['a path out of the web root', '/assets/..%2F..%2F..%2Fetc%2Fpasswd', {}],
    ['an encoded NUL in the path', '/assets/index%00.js', {}],
  ])('answers %s with a 4xx and a statusCode, never a 500', async (_name, url, headers) => {
    const response = await get(url, headers as Record<string, string>);
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (response.statusCode >= 400) expect(response.json()).toHaveProperty('statusCode');
    expect(response.body).not.toContain('root:');
    expect(response.headers['content-security-policy']).toBeTruthy();
  });
});

describe('the inline stylesheet', () => {
  /** CSP's hash source for an inline <style>: base64 SHA-256 of its text (CSP Level 3, §8.4). */
  const hashSource = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
  const styleSrc = (response: LightMyRequestResponse) =>
    String(response.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith('style-src '));

  it.each(['/signin', '/api/v1/home', '/assets/index-abc123.js'])('is allowed by its hash alone on %s', async (url) => {
    expect(styleSrc(await get(url))).toBe(`style-src 'self' ${hashSource(inlineCss)}`);
  });

  it('is served unchanged, so the hash matches what the browser reads', async () => {
    expect((await get('/signin')).body).toContain(`<style>${inlineCss}</style>`);
  });
});
