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
  /** Companion benefits app hosts: may frame the app and speak the host protocol. */
  companionOrigins: string[];
  /** Local development ports of the companion app (sandbox only by default); treated like companion hosts. */
  devOrigins: string[];
  /** The card processor's secure hosts (hosted PIN page) and the account-linking provider's hosts. */
  processorOrigins: string[];
  accountLinkingOrigins: string[];
  /** Parents that frame the app without making it "embedded": CMS preview and test runners. */
  cmsPreviewOrigins: string[];
  testRunnerOrigins: string[];
  /** Verifies the companion app's access tokens at POST /providers/sign-in (HS256 shared key). */
  companionTokenSecret: Uint8Array;
  /** Port of the sandbox companion host page (a separate origin from the app). */
  companionPort: number;
  /** Built web app to serve; absent in API-only tests. */
  webRoot: string | undefined;
  logLevel: string;
  /** Believe X-Forwarded-* headers only behind a known proxy (TRUST_PROXY=true). */
  trustProxy: boolean;
  /** AES-256-GCM key for SSNs at rest (SSN_ENCRYPTION_KEY, 32 bytes in base64). */
  ssnEncryptionKey: Buffer;
  /** HMAC-SHA256 key for the SSN's keyed hash and the texted codes' hashes (SSN_HASH_KEY, 32 bytes in base64). */
  ssnHashKey: Buffer;
};

/** Fixed sandbox signing keys: only ever used when SANDBOX is on and the real ones are unset. */
const sandboxTokenSecret = 'sandbox-only-token-secret-never-use-in-production-0001';
const sandboxCompanionTokenSecret = 'sandbox-only-companion-token-secret-not-for-production';
/** Fixed sandbox SSN keys ('sandbox-only-ssn-encryption-key!', 'sandbox-only-ssn-hash-key-000001'). */
const sandboxSsnEncryptionKey = 'c2FuZGJveC1vbmx5LXNzbi1lbmNyeXB0aW9uLWtleSE=';
const sandboxSsnHashKey = 'c2FuZGJveC1vbmx5LXNzbi1oYXNoLWtleS0wMDAwMDE=';

/** A 32-byte key given in base64; the sandbox value applies only in sandbox mode. */
function key32(name: string, value: string | undefined, sandboxDefault: string, sandbox: boolean): Buffer {
  const given = value ?? (sandbox ? sandboxDefault : undefined);
  const key = given && /^[A-Za-z0-9+/]+={0,2}$/.test(given.trim()) ? Buffer.from(given.trim(), 'base64') : undefined;
  if (!key || key.length !== 32) {
    throw new Error(`${name} must be 32 random bytes in base64 (\`openssl rand -base64 32\`); it is required outside sandbox mode.`);
  }
  return key;
}

/** A comma-separated list of exact origins (scheme://host[:port]); sandbox values apply when unset. */
function originList(value: string | undefined, sandboxDefault: string, sandbox: boolean): string[] {
  return (value ?? (sandbox ? sandboxDefault : ''))
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((origin) => new URL(origin).origin);
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const sandbox = env.SANDBOX ? env.SANDBOX === 'true' : env.NODE_ENV !== 'production';
  const secret = env.TOKEN_SECRET ?? (sandbox ? sandboxTokenSecret : undefined);
  if (!secret || secret.length < 32) {
    throw new Error('TOKEN_SECRET (at least 32 characters) is required outside sandbox mode.');
  }
  const companionSecret = env.COMPANION_TOKEN_SECRET ?? (sandbox ? sandboxCompanionTokenSecret : undefined);
  if (!companionSecret || companionSecret.length < 32) {
    throw new Error('COMPANION_TOKEN_SECRET (at least 32 characters) is required outside sandbox mode.');
  }
  const ssnEncryptionKey = key32('SSN_ENCRYPTION_KEY', env.SSN_ENCRYPTION_KEY, sandboxSsnEncryptionKey, sandbox);
  const ssnHashKey = key32('SSN_HASH_KEY', env.SSN_HASH_KEY, sandboxSsnHashKey, sandbox);
  if (ssnEncryptionKey.equals(ssnHashKey)) throw new Error('SSN_ENCRYPTION_KEY and SSN_HASH_KEY must differ.');
  const companionPort = Number(env.COMPANION_PORT ?? 8090);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? '.data/pglite'),
    sandbox,
    accessTokenTtl: Number(env.ACCESS_TOKEN_TTL ?? 900),
    refreshTokenTtl: Number(env.REFRESH_TOKEN_TTL ?? 60 * 60 * 24 * 30),
    tokenSecret: new TextEncoder().encode(secret),
    companionOrigins: originList(env.COMPANION_ORIGINS, `http://localhost:${companionPort}`, sandbox),
    devOrigins: originList(env.DEV_ORIGINS, 'http://localhost:5173', sandbox),
    processorOrigins: originList(env.PROCESSOR_ORIGINS, 'http://localhost:8091', sandbox),
    accountLinkingOrigins: originList(env.ACCOUNT_LINKING_ORIGINS, 'http://localhost:8092', sandbox),
    cmsPreviewOrigins: originList(env.CMS_PREVIEW_ORIGINS, '', sandbox),
    testRunnerOrigins: originList(env.TEST_RUNNER_ORIGINS, '', sandbox),
    companionTokenSecret: new TextEncoder().encode(companionSecret),
    companionPort,
    webRoot: env.WEB_ROOT === '' ? undefined : path.resolve(env.WEB_ROOT ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: env.TRUST_PROXY === 'true',
    ssnEncryptionKey,
    ssnHashKey,
  };
}
