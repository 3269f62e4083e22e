/** Builds the Fastify server: card API (/api/v1), content API (/cms), sandbox, and the web app. */
import { existsSync } from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { StatusCode } from '../contract/statusCodes.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { yupValidatorCompiler } from './http.ts';
import { registerSandboxRoutes } from './partners/sandbox.ts';
import { registerAccountRoutes } from './routes/account.ts';
import { registerAnalyticsRoutes } from './routes/analytics.ts';
import { registerAuthRoutes } from './routes/auth.ts';
import { registerContentRoutes } from './routes/content.ts';
import { registerSecurityHeaders } from './securityHeaders.ts';
import { createSessions } from './sessions.ts';

/** Never logged: credentials, codes and tokens travel in these. */
const redactedPaths = ['req.headers.authorization', 'req.body', 'res.body'];

export async function buildApp(config: ServerConfig, db: Database, options: { logger?: boolean } = {}) {
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel, redact: redactedPaths },
    bodyLimit: 16 * 1024,
    trustProxy: config.trustProxy,
  });
  const sessions = createSessions(db, config);

  registerSecurityHeaders(app, config);
  // Phones on slow data: scripts, styles and JSON travel compressed (brotli when accepted).
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    // Quality 5 compresses nearly as well as 11 at a fraction of the CPU per request.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  app.setValidatorCompiler(yupValidatorCompiler);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation || error.statusCode === 400 || error.statusCode === 413 || error.statusCode === 415) {
      return reply.code(error.statusCode === 413 ? 413 : 400).send({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
    if (error.code === 'FST_ERR_VALIDATION' || error.name === 'ValidationError') {
      return reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ statusCode: StatusCode.UNEXPECTED_ERROR });
  });

  await app.register(
    async (api) => {
      registerAuthRoutes(api, db, sessions);
      registerAccountRoutes(api, db, sessions);
      registerAnalyticsRoutes(api, db, sessions);
    },
    { prefix: '/api/v1' },
  );
  await app.register(async (cms) => registerContentRoutes(cms), { prefix: '/cms' });
  if (config.sandbox) {
    await app.register(async (sandbox) => registerSandboxRoutes(sandbox, db, sessions), { prefix: '/sandbox' });
  }
  await registerWebApp(app, config);
  return app;
}

/** Serves the built app: hashed assets cached forever, index.html for every app route. */
async function registerWebApp(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const webRoot = config.webRoot;
  const hasWebApp = webRoot !== undefined && existsSync(path.join(webRoot, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      wildcard: true,
      cacheControl: false,
      setHeaders(response, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = /^\/(api|cms|sandbox)\//.test(request.url);
    if (hasWebApp && (request.method === 'GET' || request.method === 'HEAD') && !isApi && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });
}
