/** Server configuration, read once from the environment. Sandbox is the default outside production. */
import path from 'node:path';

export type ServerConfig = {
  port: number;
  host: string;
  /** PostgreSQL connection string; without it the embedded PGlite database under dataDir is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  sandbox: boolean;
  /** Seconds an access token lives. */
  accessTokenTtl: number;
  /** Seconds a refresh-token family lives at most, however often it rotates. */
  refreshTokenTtl: number;
  tokenSecret: Uint8Array;
  /** Origins allowed to frame the app (companion benefits app hosts). */
  companionOrigins: string[];
  /** Built web app to serve; absent in API-only tests. */
  webRoot: string | undefined;
  logLevel: string;
  /** Believe X-Forwarded-* headers only behind a known proxy (TRUST_PROXY=true). */
  trustProxy: boolean;
};

/** Fixed sandbox signing key: only ever used when SANDBOX is on and TOKEN_SECRET is unset. */
const sandboxTokenSecret = 'sandbox-only-token-secret-never-use-in-production-0001';

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const sandbox = env.SANDBOX ? env.SANDBOX === 'true' : env.NODE_ENV !== 'production';
  const secret = env.TOKEN_SECRET ?? (sandbox ? sandboxTokenSecret : undefined);
  if (!secret || secret.length < 32) {
    throw new Error('TOKEN_SECRET (at least 32 characters) is required outside sandbox mode.');
  }
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? '.data/pglite'),
    sandbox,
    accessTokenTtl: Number(env.ACCESS_TOKEN_TTL ?? 900),
    refreshTokenTtl: Number(env.REFRESH_TOKEN_TTL ?? 60 * 60 * 24 * 30),
    tokenSecret: new TextEncoder().encode(secret),
    companionOrigins: (env.COMPANION_ORIGINS ?? 'http://localhost:8090')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    webRoot: env.WEB_ROOT === '' ? undefined : path.resolve(env.WEB_ROOT ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true',
  };
}
