/** Security headers on every response (HTML, JSON and assets alike). */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loopbackHosts, type ServerConfig } from './config.ts';
import { decodedPath } from './shared/http.ts';


/** Who may frame the app: companion hosts and their dev ports, the CMS preview and test runners. */
function frameAncestors(config: ServerConfig): string[] {
  const parents = [...config.companionOrigins, ...config.devOrigins, ...config.cmsPreviewOrigins, ...config.testRunnerOrigins];
  return ["'self'", ...new Set(parents)];
}

/**
 * CSP hash sources for the page's inline <style> elements (the build inlines the app's stylesheet into
 * index.html, vite.config.ts): only these exact styles may apply, never one injected into the page.
 */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    ([, css]) => `'sha256-${createHash('sha256').update(css ?? '').digest('base64')}'`,
  );
}

export function contentSecurityPolicy(config: ServerConfig, styleHashes: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...styleHashes].join(' '),
    // Card images come from the card processor's origin.
    ["img-src 'self' data:", ...config.processorOrigins].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // The processor's hosted PIN page and the account-linking provider are framed by the app.
    ["frame-src 'self'", ...config.processorOrigins, ...config.accountLinkingOrigins].join(' '),
    `frame-ancestors ${frameAncestors(config).join(' ')}`,
  ].join('; ');
}

type SetHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/** The headers every answer carries, whatever it is and whoever asked. */
function fixedHeaders(config: ServerConfig, styleHashes: readonly string[]): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(config, styleHashes)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(self)'],
    ['Cross-Origin-Resource-Policy', 'same-site'],
  ];
}

/**
 * Sets the headers on one answer (also used where Fastify answers before any hook runs). `styleHashes`:
 * the served page's inline styles (`inlineStyleHashes`), none when no page is served.
 */
export function securityHeaderSetter(config: ServerConfig, styleHashes: readonly string[]): SetHeaders {
  const fixed = fixedHeaders(config, styleHashes);
  return (request, reply) => {
    for (const [name, value] of fixed) reply.header(name, value);
    const hostname = request.hostname.replace(/:\d+$/, '');
    // API and sandbox answers carry tokens, personal data and balances: no cache (shared or the
    // phone's own) may keep them. Pragma for HTTP/1.0 caches on the way. Read on the path as the
    // router reads it, decoded: `/%61pi/…` reaches the API too.
    if (/^\/(api|sandbox)(\/|$)/.test(decodedPath(request.url))) {
      reply.header('Cache-Control', 'no-store');
      reply.header('Pragma', 'no-cache');
    }
    // The app shell gets a browsing context group of its own: a page it did not open cannot reach it
    // through window.opener. "allow-popups" keeps windows the app opens (account linking) able to
    // answer it; inside the companion app's frame the header has no effect, as COOP applies only to
    // top-level pages.
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
    }
    // Only over HTTPS (RFC 6797 §7.2: never over plain HTTP): TLS to this server, or a proxy listed in
    // TRUST_PROXY that says so (X-Forwarded-Proto). Not to localhost: a developer's other local apps
    // would be held to HTTPS for two years.
    if (request.protocol === 'https' && !loopbackHosts.has(hostname)) {
      reply.header('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    }
  };
}

export function registerSecurityHeaders(app: FastifyInstance, setHeaders: SetHeaders): void {
  app.addHook('onSend', async (request, reply) => setHeaders(request, reply));
}

const clientErrorStatus: Record<string, number> = { ERR_HTTP_REQUEST_TIMEOUT: 408, HPE_HEADER_OVERFLOW: 431 };

/**
 * Fastify's `clientErrorHandler`: a request Node cannot parse (headers over its size limit, a broken
 * request line, a request that took too long) is answered on the socket before Fastify has a request or
 * a reply, so no hook sets headers. Fastify's own answer (fastify.js defaultClientErrorHandler) has no
 * CSP and names the cause; this one carries the headers every answer carries (not HSTS: the host is
 * unknown here) and says only what the app's other client errors say. Written only when no answer is
 * under way on the connection (as Node's own handler does): a broken request pipelined behind another
 * must not land inside that answer's body, so the connection just closes.
 */
export function clientErrorAnswerer(config: ServerConfig, styleHashes: readonly string[], body: string) {
  return answerClientErrors(fixedHeaders(config, styleHashes), body);
}

function answerClientErrors(fixed: readonly (readonly [string, string])[], body: string) {
  return (error: Error & { code?: string }, socket: Duplex & { _httpMessage?: { _headerSent?: boolean } | null }): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = clientErrorStatus[error.code ?? ''] ?? 400;
    const headers = [
      ...fixed,
      ['Cache-Control', 'no-store'],
      // Every answer of a server with a clock carries Date (RFC 9110 §6.6.1); Node adds it only to its own.
      ['Date', new Date().toUTCString()],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(Buffer.byteLength(body))],
      ['Connection', 'close'],
    ];
    if (socket.writable && !socket._httpMessage?._headerSent) {
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
    }
    socket.destroy(error);
  };
}

/**
 * A sandbox partner's server (the processor's pages, the companion host) sets its own `headers` on every
 * answer in an onSend hook; these Fastify options give them also to a request Node or Fastify cannot
 * parse (a URL that does not decode, a broken request line), which no hook sees: 400 with `body`.
 */
export function partnerMalformedRequests(headers: readonly (readonly [string, string])[], body: object) {
  const json = JSON.stringify(body);
  return {
    clientErrorHandler: answerClientErrors(headers, json),
    frameworkErrors: (_error: Error, _request: FastifyRequest, reply: FastifyReply) => {
      for (const [name, value] of headers) reply.header(name, value);
      reply.code(400).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(json);
    },
  };
}
