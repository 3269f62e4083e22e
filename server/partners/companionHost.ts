/**
 * Sandbox companion host (docs/architecture.md §7, §8): a stand-in for the companion benefits app on its own
 * origin (http://localhost:COMPANION_PORT). Its page (server/partners/companion-host/, built by Vite
 * into dist/server/partners/companion-host/index.html) shows a phone frame of the benefits app with
 * the card app in an iframe, answers every message of the host protocol (contract/hostProtocol.ts) and
 * has a tester panel. This server serves that page and its assets, and issues the companion app's
 * access tokens (POST /companion/token), which the card API accepts at POST /providers/sign-in.
 * Sandbox mode only: main.ts never starts it otherwise.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { number, object, string } from 'yup';
import { issueCompanionToken } from '../companionTokens.ts';
import type { ServerConfig } from '../config.ts';
import { partnerMalformedRequests } from '../securityHeaders.ts';
import { requestTargetOptions, registerHostChecks } from '../shared/requestHost.ts';
import { yupValidatorCompiler } from '../shared/http.ts';
import { loggableError } from '../shared/errorLog.ts';
import { partnerLogger, type PartnerLogOptions } from '../shared/requestLog.ts';
import { maxTokenTtlSeconds, minTokenTtlSeconds } from './companion-host/user.ts';

export type CompanionHostOptions = PartnerLogOptions & {
  /** Where the card app runs (its origin is the only one the page frames and talks to). */
  appUrl: string;
};

/** Where Vite writes the page, relative to the web root (it keeps the source path). */
export const companionPagePath = path.join('server', 'partners', 'companion-host', 'index.html');
export const companionConfigElementId = 'companion-config';
export type CompanionPageConfig = { appUrl: string };

const tokenRequest = object({
  uuid: string()
    .required()
    .min(1)
    .max(128)
    .matches(/^[A-Za-z0-9_-]+$/),
  email: string().max(254).nullable().defined(),
  /** The EBT account the companion app has linked to the user, vouched for in the token. */
  ebtAccountId: string().max(64).nullable().optional(),
  ttlSeconds: number().integer().min(minTokenTtlSeconds).max(maxTokenTtlSeconds).optional(),
})
  .noUnknown()
  .strict();
type TokenRequest = { uuid: string; email: string | null; ebtAccountId?: string | null; ttlSeconds?: number };

export function companionHostContentSecurityPolicy(appOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${appOrigin}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page with its configuration injected before </head>; `<` escaped so no value can end the script. */
export function injectCompanionConfig(html: string, pageConfig: CompanionPageConfig): string {
  const json = JSON.stringify(pageConfig).replace(/</g, '\\u003c');
  const element = `<script id="${companionConfigElementId}" type="application/json">${json}</script>`;
  return html.includes('</head>') ? html.replace('</head>', `${element}\n</head>`) : `${element}\n${html}`;
}

/** The companion host server, not listening (tests use inject). */
export async function buildCompanionHost(config: ServerConfig, options: CompanionHostOptions): Promise<FastifyInstance> {
  const appOrigin = new URL(options.appUrl).origin;
  const headers = [
    ['Content-Security-Policy', companionHostContentSecurityPolicy(appOrigin)],
    ['X-Content-Type-Options', 'nosniff'],
    // The framed app learns its parent's origin from document.referrer (origin only, cross-origin).
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ] as const;
  const host = Fastify({
    logger: partnerLogger(config.logLevel, options),
    bodyLimit: 4 * 1024,
    ...partnerMalformedRequests(headers, { error: 'bad request' }),
    ...requestTargetOptions,
  });
  registerHostChecks(host, config, { error: 'bad request' });
  host.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of headers) reply.header(name, value);
  });
  host.setValidatorCompiler(yupValidatorCompiler);
  host.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation || (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)) {
      return reply.code(error.statusCode === 413 ? 413 : 400).send({ error: 'bad request' });
    }
    if (error.name === 'ValidationError') return reply.code(400).send({ error: 'bad request' });
    request.log.error(loggableError(error), 'companion host error');
    return reply.code(500).send({ error: 'unexpected error' });
  });

  const webRoot = config.webRoot;
  const pageFile = webRoot === undefined ? undefined : path.join(webRoot, companionPagePath);
  const pageConfig: CompanionPageConfig = { appUrl: options.appUrl };

  host.get('/', async (_request, reply) => {
    // Read on each request: a rebuild shows up without restarting (this is a sandbox tool).
    const html = pageFile && existsSync(pageFile) ? await readFile(pageFile, 'utf8') : undefined;
    if (html === undefined) {
      return reply
        .code(503)
        .header('Cache-Control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The companion host page is not built: run `npx vite build` (or `npm start`).');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(injectCompanionConfig(html, pageConfig));
  });

  const assets = webRoot === undefined ? undefined : path.join(webRoot, 'assets');
  if (assets && existsSync(assets)) {
    await host.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      index: false,
      cacheControl: false,
      // The build's compressed copies, as the app's own server sends them (server/app.ts).
      preCompressed: true,
      setHeaders(response) {
        response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        response.setHeader('Vary', 'accept-encoding');
      },
    });
  }

  host.post<{ Body: TokenRequest }>('/companion/token', { schema: { body: tokenRequest } }, async (request, reply) => {
    const { uuid, email, ebtAccountId, ttlSeconds } = request.body;
    const accessToken = await issueCompanionToken({ uuid, email, ebtAccountId }, config.companionTokenSecret, ttlSeconds ?? 600);
    return reply.header('Cache-Control', 'no-store').send({ accessToken });
  });

  host.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not found' }));
  return host;
}

/** Builds the companion host and listens on config.companionPort; the caller closes it on shutdown. */
export async function startCompanionHost(config: ServerConfig, options: CompanionHostOptions): Promise<FastifyInstance> {
  const host = await buildCompanionHost(config, options);
  await host.listen({ port: config.companionPort, host: config.host });
  return host;
}
