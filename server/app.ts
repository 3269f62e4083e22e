/** Builds the Fastify server: card API (/api/v1), content API (/cms), sandbox, and the web app. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type AppConfig, appConfigElementId } from '../contract/shared/appConfig.ts';
import { type Locale, localeOfAcceptLanguage, splashLabel } from '../contract/shared/locale.ts';
import { StatusCode } from '../contract/shared/statusCodes.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { accountFeature } from './features/account/index.ts';
import { activityFeature } from './features/activity/index.ts';
import { analyticsFeature } from './features/analytics/index.ts';
import { cardsFeature } from './features/cards/index.ts';
import { contentFeature } from './features/content/index.ts';
import { experimentsFeature } from './features/experiments/index.ts';
import { homeFeature } from './features/home/index.ts';
import { identityFeature } from './features/identity/index.ts';
import { sessionFeature } from './features/session/index.ts';
import { statementsFeature } from './features/statements/index.ts';
import { registerOpenApi } from './openApi.ts';
import { registerSandboxRoutes } from './partners/sandbox.ts';
import { clientErrorAnswerer, inlineStyleHashes, registerSecurityHeaders, securityHeaderSetter } from './securityHeaders.ts';
import { createServices, type Services } from './services.ts';
import { decodedPath, registerAuthChallenges, yupValidatorCompiler } from './shared/http.ts';
import { loggableError, sqlStateOf } from './shared/errorLog.ts';
import { answerWhileClosing } from './shared/closing.ts';
import { answerOtherMethods } from './shared/otherMethods.ts';
import { requestLogged } from './shared/requestLog.ts';
import { requestTargetOptions, registerHostChecks } from './shared/requestHost.ts';
import { registerRequestSafety } from './shared/requestSafety.ts';

/** Never logged: credentials, codes and tokens travel in these. */
const redactedPaths = ['req.headers.authorization', 'req.headers["companion-authorization"]', 'req.body', 'res.body'];

/**
 * Spent attempt counters, texted codes and expired sessions go at start and every hour after
 * (attemptLimits.ts, textedCodes.ts deleteSpent; sessions.ts deleteExpired).
 */
async function deleteSpentRows(app: FastifyInstance, { limits, textedCodes, sessions }: Services): Promise<void> {
  const deleteSpent = () =>
    Promise.all([limits.deleteSpent(), textedCodes.deleteSpent(), sessions.deleteExpired()]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not delete spent attempt counters, texted codes or expired sessions'),
    );
  await deleteSpent();
  const hourly = setInterval(() => void deleteSpent(), 60 * 60 * 1000);
  hourly.unref();
  app.addHook('onClose', async () => clearInterval(hourly));
}

export async function buildApp(
  config: ServerConfig,
  db: Database,
  /** `logStream` receives the request logs instead of stdout (tests read what would be logged). */
  options: { logger?: boolean; logStream?: NodeJS.WritableStream } = {},
) {
  const indexPath = config.webRoot === undefined ? undefined : path.join(config.webRoot, 'index.html');
  const rawIndex = indexPath !== undefined && existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : undefined;
  const styleHashes = rawIndex === undefined ? [] : inlineStyleHashes(rawIndex);
  const setSecurityHeaders = securityHeaderSetter(config, styleHashes);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: redactedPaths,
            serializers: { req: requestLogged },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: 16 * 1024,
    // A body still arriving after 30 s is cut off (a slow-drip client holds a socket otherwise).
    requestTimeout: 30_000,
    trustProxy: config.trustProxy,
    // A request Node cannot parse gets the same headers as every other answer.
    clientErrorHandler: clientErrorAnswerer(config, styleHashes, JSON.stringify({ statusCode: StatusCode.INVALID_PARAMETERS })),
    // A URL that cannot be decoded: 400 with the security headers, the path not echoed back.
    frameworkErrors: (_error, request, reply) => {
      setSecurityHeaders(request, reply as FastifyReply);
      (reply as FastifyReply).code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS });
    },
    ...requestTargetOptions,
    // answerWhileClosing answers instead, with the headers and a statusCode.
    return503OnClosing: false,
  });
  answerWhileClosing(app, { statusCode: StatusCode.UNEXPECTED_ERROR });
  registerHostChecks(app, config, { statusCode: StatusCode.INVALID_PARAMETERS });
  const services = createServices(config, db);
  await deleteSpentRows(app, services);
  app.decorate('afterAnswer', services.afterAnswer);
  app.addHook('onClose', () => services.afterAnswer.settled());

  registerSecurityHeaders(app, setSecurityHeaders);
  registerAuthChallenges(app);
  // Phones on slow data: scripts, styles and JSON travel compressed (brotli when accepted).
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    // Quality 5 compresses nearly as well as 11 at a fraction of the CPU per request.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  app.setValidatorCompiler(yupValidatorCompiler);
  registerRequestSafety(app);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A request the client got wrong (malformed body, too large, not JSON (415), bad Range or If-Match on
    // a file, a value PostgreSQL cannot hold: SQLSTATE class 22) is answered as such, never as our failure.
    const dataException = sqlStateOf(error)?.startsWith('22') ?? false;
    const asBadRequest = dataException || error.validation || error.name === 'ValidationError';
    const status = asBadRequest ? 400 : (error.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      // The file server's own headers for it: a 416's `Content-Range: bytes */length` (RFC 9110 §15.5.17).
      const { headers } = error as FastifyError & { headers?: Record<string, string> };
      if (headers) reply.headers(headers);
      const statusCode = status === 403 || status === 404 ? StatusCode.NOT_ALLOWED : StatusCode.INVALID_PARAMETERS;
      return reply.code(status).send({ statusCode });
    }
    request.log.error(loggableError(error), 'unexpected error');
    return reply.code(500).send({ statusCode: StatusCode.UNEXPECTED_ERROR });
  });

  const answerOtherMethodsOfCalls = answerOtherMethods(app, { statusCode: StatusCode.INVALID_PARAMETERS });
  // Each feature registers its route table's entries at their own paths (/api/v1/…, /cms/…).
  for (const feature of [identityFeature, sessionFeature, accountFeature, homeFeature, activityFeature, statementsFeature, cardsFeature, experimentsFeature, analyticsFeature, contentFeature]) {
    feature(app, services);
  }
  registerOpenApi(app);
  if (config.sandbox) {
    await app.register(async (sandbox) => registerSandboxRoutes(sandbox, db, services.sessions), { prefix: '/sandbox' });
  }
  answerOtherMethodsOfCalls();
  await registerWebApp(app, config, rawIndex);
  return app;
}

/** What the web app needs to know about its surroundings, from the same environment as the server. */
function appConfigOf(config: ServerConfig): AppConfig {
  return {
    sandbox: config.sandbox,
    hostOrigins: [...config.companionOrigins, ...config.devOrigins],
    processorOrigins: config.processorOrigins,
    accountLinkingOrigins: config.accountLinkingOrigins,
    cmsPreviewOrigins: config.cmsPreviewOrigins,
    testRunnerOrigins: config.testRunnerOrigins,
  };
}

/** The page's words before the app's own: its title (the screens set theirs once they show) and its description. */
const pageWords: Record<Locale, { title: string; description: string }> = {
  en: { title: 'Providers card', description: 'Providers prepaid debit account and card' },
  es: { title: 'Tarjeta Providers', description: 'Cuenta prepagada y tarjeta de débito Providers' },
};

/**
 * index.html in one language: `<html lang>`, the title, the description and the splash's label (the
 * page's only words before the app starts) for a browser that prefers it. Throws at start when the
 * build's page lacks one of them.
 */
/**
 * Whether an If-None-Match header names `etag` (RFC 9110 §13.1.2): `*`, or any tag of its list, compared
 * weakly (`W/` set aside), as a cache sends back a tag it keeps or several.
 */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export function pageIn(html: string, locale: Locale): string {
  const words = { ...pageWords[locale], splash: splashLabel[locale] };
  const marks = {
    lang: [/<html lang="en"/, `<html lang="${locale}"`],
    title: [`<title>${pageWords.en.title}</title>`, `<title>${words.title}</title>`],
    description: [`content="${pageWords.en.description}"`, `content="${words.description}"`],
    splash: [`aria-label="${splashLabel.en}"`, `aria-label="${words.splash}"`],
  } as const;
  return Object.entries(marks).reduce((page, [name, [english, translated]]) => {
    if (!(typeof english === 'string' ? page.includes(english) : english.test(page))) throw new Error(`index.html has no English ${name} to translate (${english}).`);
    return page.replace(english, translated);
  }, html);
}

/**
 * index.html with the app config as a JSON script before </head>. JSON is not executed, so CSP
 * `script-src 'self'` holds; `<` is escaped so no value can close the script element.
 */
export function injectAppConfig(html: string, appConfig: AppConfig): string {
  if (!html.includes('</head>')) throw new Error('index.html has no </head> to put the app config before.');
  const json = JSON.stringify(appConfig).replace(/</g, '\\u003c');
  const script = `<script id="${appConfigElementId}" type="application/json">${json}</script>`;
  return html.replace('</head>', () => `${script}</head>`);
}

/** Serves the built app: hashed assets cached forever, index.html (with its config) for every app route. */
async function registerWebApp(app: FastifyInstance, config: ServerConfig, rawIndex: string | undefined): Promise<void> {
  const notFound = (reply: FastifyReply) => reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  const webRoot = config.webRoot;
  if (webRoot === undefined || rawIndex === undefined) {
    app.setNotFoundHandler((_request, reply) => notFound(reply));
    return;
  }
  await app.register(fastifyStatic, {
    root: webRoot,
    index: false,
    wildcard: true,
    cacheControl: false,
    // The build writes each script and stylesheet compressed beside itself (vite.config.ts
    // `precompressed`): sent as they are, with no compression per request.
    preCompressed: true,
    // dist/ also holds the sandbox companion host's page, which belongs on its own origin only, the
    // build's manifest, which no page needs, and index.html without the app config (sendIndex adds it:
    // without it the app would start with the sandbox's origins). Normalised first: `//server/…` and
    // `//index.html` reach the same files.
    allowedPath: (pathName) => !/^\/(server\/|\.vite\/|index\.html$)/.test(path.posix.normalize(pathName)),
    setHeaders(response, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      response.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      // Which copy was sent depends on the request's Accept-Encoding, so a shared cache must keep them apart.
      response.setHeader('Vary', 'accept-encoding'); // lower case, as @fastify/compress writes and looks for it
    },
  });

  const withConfig = injectAppConfig(rawIndex, appConfigOf(config));
  const pages = Object.fromEntries(
    (['en', 'es'] as const).map((locale) => {
      const html = pageIn(withConfig, locale);
      // Revalidated on every visit (no-cache), so a repeat visit gets a 304 instead of the page again.
      // Weak: the same page compressed or not.
      return [locale, { html, etag: `W/"${createHash('sha256').update(html).digest('base64url')}"` }];
    }),
  ) as Record<Locale, { html: string; etag: string }>;
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    const locale = localeOfAcceptLanguage(request.headers['accept-language']);
    const page = pages[locale];
    reply.code(200).header('Cache-Control', 'no-cache').header('ETag', page.etag).header('Content-Language', locale);
    // A shared cache keeps the two languages and the codings apart; named here so a 304 says the same
    // as the 200 (RFC 9110 §15.4.5), which @fastify/compress sends after this (it adds nothing then).
    reply.header('Vary', 'accept-language, accept-encoding');
    if (etagMatches(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(page.html);
  };
  // Never the raw file from disk (it lacks the config), and `/` would be a directory to the static files.
  app.get('/', sendIndex);
  app.get('/index.html', sendIndex);
  app.setNotFoundHandler((request, reply) => {
    // On the path as the router reads it, decoded (`/%61pi/…` is the API's, `/%69ndex.html` the page).
    const pagePath = decodedPath(request.url);
    const isApi = /^\/(api|cms|sandbox)(\/|$)/.test(pagePath);
    const isAppRoute = !isApi && (!path.extname(pagePath) || pagePath === '/index.html');
    if ((request.method === 'GET' || request.method === 'HEAD') && isAppRoute) return sendIndex(request, reply);
    // An app page is there for GET only: another method is 405 naming those it takes (RFC 9110 §15.5.6),
    // OPTIONS 204 with them (§9.3.7), as for the calls (shared/otherMethods.ts).
    if (isAppRoute) {
      reply.header('Allow', 'GET, HEAD, OPTIONS');
      return request.method === 'OPTIONS' ? reply.code(204).send() : reply.code(405).send({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
    return notFound(reply);
  });
}
