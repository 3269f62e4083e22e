/**
 * Server configuration, read once from the environment. One switch chooses production:
 * `NODE_ENV=production`. Anything else is the sandbox (the demo `npm start` runs), which binds to
 * loopback only and falls back to keys committed in this repo. A configuration that would be unsafe
 * refuses to start with a message naming the problem (ConfigError).
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

export type ServerConfig = {
  port: number;
  host: string;
  /** PostgreSQL connection string; without it the embedded PGlite database under dataDir is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * A PGlite data folder dump (`dumpDataDir()`) a new dataDir starts from instead of an empty cluster;
   * the migrations still run on it. npm test hands the browser tests the migrated dump its unit tests
   * made (scripts/test.sh), which saves the e2e server's cluster creation and migrations.
   */
  pgliteDump: string | undefined;
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
  /** Port of the sandbox card processor (hosted PIN page, card details, card images: its own origin). */
  processorPort: number;
  /** Built web app to serve; absent in API-only tests. */
  webRoot: string | undefined;
  logLevel: string;
  /**
   * Whose X-Forwarded-For to believe: nobody (false) or the listed proxies (TRUST_PROXY: addresses,
   * CIDRs, or proxy-addr's `loopback`, `linklocal`, `uniquelocal`). Never every hop: a client could
   * then name any IP and escape the per-IP limits.
   */
  trustProxy: false | string[];
  /** AES-256-GCM key for SSNs at rest (SSN_ENCRYPTION_KEY, 32 bytes in base64). */
  ssnEncryptionKey: Buffer;
  /** HMAC-SHA256 key for the SSN's keyed hash and the texted codes' hashes (SSN_HASH_KEY, 32 bytes in base64). */
  ssnHashKey: Buffer;
  /** Seconds between the sweeps that record expired holds in the ledger (HOLD_EXPIRY_SWEEP_SECONDS, default 60; 0: none). */
  holdExpirySweepSeconds: number;
};

/** Fixed sandbox signing keys: only ever used when SANDBOX is on and the real ones are unset. */
const sandboxTokenSecret = 'sandbox-only-token-secret-never-use-in-production-0001';
const sandboxCompanionTokenSecret = 'sandbox-only-companion-token-secret-not-for-production';
/** Fixed sandbox SSN keys ('sandbox-only-ssn-encryption-key!', 'sandbox-only-ssn-hash-key-000001'). */
const sandboxSsnEncryptionKey = 'c2FuZGJveC1vbmx5LXNzbi1lbmNyeXB0aW9uLWtleSE=';
const sandboxSsnHashKey = 'c2FuZGJveC1vbmx5LXNzbi1oYXNoLWtleS0wMDAwMDE=';

/** A configuration the server refuses to start with; the message says what to change. */
export class ConfigError extends Error {}

const nodeEnvs = ['development', 'test', 'production'];

/** Bits of entropy the symbols of a secret show (Shannon, per symbol, times its length). */
function entropyBits(symbols: (string | number)[]): number {
  const counts = new Map<string | number, number>();
  for (const symbol of symbols) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  let perSymbol = 0;
  for (const count of counts.values()) perSymbol -= (count / symbols.length) * Math.log2(count / symbols.length);
  return perSymbol * symbols.length;
}

/**
 * Whether a secret looks chosen rather than random: few distinct symbols for its length (under 96
 * bits: a random 32-character hex string shows ~118), or mostly runs like "abcd" / "4321" / "aaaa".
 */
function looksGuessable(symbols: number[]): boolean {
  let steps = 0;
  for (let i = 1; i < symbols.length; i += 1) if (Math.abs(symbols[i]! - symbols[i - 1]!) <= 1) steps += 1;
  return entropyBits(symbols) < 96 || steps > (symbols.length - 1) / 2;
}

/** A signing secret: its sandbox value in sandbox mode only; in production at least 32 characters, random-looking, not committed. */
function signingSecret(name: string, value: string | undefined, sandboxDefault: string, sandbox: boolean): string {
  if (sandbox) return value ?? sandboxDefault;
  if (!value || value.length < 32) throw new ConfigError(`${name} (at least 32 random characters) is required in production.`);
  if (value === sandboxDefault) throw new ConfigError(`${name} is the sandbox's key, committed in this repository: set your own.`);
  if (looksGuessable([...value].map((character) => character.codePointAt(0)!))) {
    throw new ConfigError(`${name} looks guessable (repeated or sequential characters): use \`openssl rand -base64 48\`.`);
  }
  return value;
}

/** A 32-byte key given in base64; the sandbox value applies only in sandbox mode. */
function key32(name: string, value: string | undefined, sandboxDefault: string, sandbox: boolean): Buffer {
  const given = value ?? (sandbox ? sandboxDefault : undefined);
  const key = given && /^[A-Za-z0-9+/]+={0,2}$/.test(given.trim()) ? Buffer.from(given.trim(), 'base64') : undefined;
  if (!key || key.length !== 32) {
    throw new ConfigError(`${name} must be 32 random bytes in base64 (\`openssl rand -base64 32\`); it is required in production.`);
  }
  if (!sandbox && given!.trim() === sandboxDefault) {
    throw new ConfigError(`${name} is the sandbox's key, committed in this repository: set your own.`);
  }
  if (!sandbox && looksGuessable([...key])) {
    throw new ConfigError(`${name} is not random (repeated bytes): use \`openssl rand -base64 32\`.`);
  }
  return key;
}

export const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

const proxyRanges = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: unset or false, or a comma-separated list of the proxies in front of the app. */
function trustedProxies(value: string | undefined): false | string[] {
  const given = value?.trim() ?? '';
  if (given === '' || given === 'false') return false;
  const fix = 'list the proxies in front of the app by address or CIDR (TRUST_PROXY=10.0.0.5,10.1.0.0/16)';
  if (given === 'true') {
    throw new ConfigError(`TRUST_PROXY=true would believe every X-Forwarded-For hop, so any client could pick its IP: ${fix}.`);
  }
  // Fastify trusts no hop for a count (it cannot tell a proxy from a client that way).
  if (/^\d+$/.test(given)) throw new ConfigError(`TRUST_PROXY=${given}: a number of hops cannot tell a proxy from a client; ${fix}.`);
  const proxies = given.split(',').map((entry) => entry.trim());
  for (const proxy of proxies) {
    if (proxyRanges.includes(proxy)) continue;
    const [address, bits, extra] = proxy.split('/');
    const family = isIP(address ?? '');
    const width = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= width))) {
      throw new ConfigError(`TRUST_PROXY: "${proxy}" is not a proxy address or CIDR; ${fix}.`);
    }
  }
  return proxies;
}

/** This machine's host names, as a URL's hostname writes them. */
export const loopbackHosts: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A comma-separated list of exact origins (scheme://host[:port]); sandbox values apply when unset. Each
 * goes into frame-ancestors and the app's postMessage allowlists, so anything else refuses to start: a
 * wildcard (`https://*` would let every site frame the app), a `;` (a new CSP directive), a path, an
 * origin that is `null` (file:, data:), and outside the sandbox plain http but on this machine.
 */
function originList(name: string, value: string | undefined, sandboxDefault: string, sandbox: boolean): string[] {
  return (value ?? (sandbox ? sandboxDefault : ''))
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
    .map((given) => {
      const url = URL.canParse(given) ? new URL(given) : null;
      const schemeAllowed = url?.protocol === 'https:' || (url?.protocol === 'http:' && (sandbox || loopbackHosts.has(url.hostname)));
      // Host and port only: no credentials, path, query or fragment (a bare `?` or `#` included).
      const originOnly = url && !url.username && !url.password && url.pathname === '/' && !/[?#]/.test(given);
      if (!url || !schemeAllowed || !originOnly || !/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)) {
        throw new ConfigError(`${name}: "${given}" is not an exact origin (https://host or https://host:port, comma-separated; http only on this machine outside the sandbox).`);
      }
      return url.origin;
    });
}

/** `http://localhost:PORT,http://127.0.0.1:PORT`: the same local page by its two usual names (exact origins, no wildcard). */
const loopbackOrigins = (port: number) => `http://localhost:${port},http://127.0.0.1:${port}`;

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  if (env.NODE_ENV && !nodeEnvs.includes(env.NODE_ENV)) {
    throw new ConfigError(`NODE_ENV="${env.NODE_ENV}" is none of ${nodeEnvs.join(', ')}; production is NODE_ENV=production.`);
  }
  const sandbox = env.NODE_ENV !== 'production';
  if (env.SANDBOX && env.SANDBOX !== String(sandbox)) {
    throw new ConfigError(
      sandbox
        ? 'SANDBOX=false needs production: production is chosen by NODE_ENV=production alone.'
        : 'SANDBOX=true cannot run with NODE_ENV=production: the sandbox hands out sessions and texted codes to anyone.',
    );
  }
  const secret = signingSecret('TOKEN_SECRET', env.TOKEN_SECRET, sandboxTokenSecret, sandbox);
  const companionSecret = signingSecret('COMPANION_TOKEN_SECRET', env.COMPANION_TOKEN_SECRET, sandboxCompanionTokenSecret, sandbox);
  if (!sandbox && secret === companionSecret) {
    throw new ConfigError('TOKEN_SECRET and COMPANION_TOKEN_SECRET must differ: one signs our tokens, the other checks the companion app\'s.');
  }
  const ssnEncryptionKey = key32('SSN_ENCRYPTION_KEY', env.SSN_ENCRYPTION_KEY, sandboxSsnEncryptionKey, sandbox);
  const ssnHashKey = key32('SSN_HASH_KEY', env.SSN_HASH_KEY, sandboxSsnHashKey, sandbox);
  if (ssnEncryptionKey.equals(ssnHashKey)) throw new ConfigError('SSN_ENCRYPTION_KEY and SSN_HASH_KEY must differ.');
  // The sandbox answers anyone with sessions and texted codes: it stays on this machine unless told.
  const host = env.HOST ?? (sandbox ? 'localhost' : '0.0.0.0');
  if (sandbox && !isLoopback(host) && env.SANDBOX_PUBLIC !== 'true') {
    throw new ConfigError(
      `HOST=${host}: the sandbox serves sessions for any email and every texted code, so it listens on loopback only. Set SANDBOX_PUBLIC=true to expose it anyway (never with real data).`,
    );
  }
  const companionPort = Number(env.COMPANION_PORT ?? 8090);
  const processorPort = Number(env.PROCESSOR_PORT ?? 8100);
  return {
    port: Number(env.PORT ?? 8080),
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? '.data/pglite'),
    pgliteDump: pgliteDumpOf(env.PGLITE_DUMP),
    sandbox,
    accessTokenTtl: tokenLifetime('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, accessTokenLifetime),
    refreshTokenTtl: tokenLifetime('REFRESH_TOKEN_TTL', env.REFRESH_TOKEN_TTL, refreshTokenLifetime),
    tokenSecret: new TextEncoder().encode(secret),
    // Sandbox hosts answer at either loopback spelling: a tester may open http://127.0.0.1:8090.
    companionOrigins: originList('COMPANION_ORIGINS', env.COMPANION_ORIGINS, loopbackOrigins(companionPort), sandbox),
    devOrigins: originList('DEV_ORIGINS', env.DEV_ORIGINS, loopbackOrigins(5173), sandbox),
    processorOrigins: originList('PROCESSOR_ORIGINS', env.PROCESSOR_ORIGINS, loopbackOrigins(processorPort), sandbox),
    accountLinkingOrigins: originList('ACCOUNT_LINKING_ORIGINS', env.ACCOUNT_LINKING_ORIGINS, 'http://localhost:8092', sandbox),
    cmsPreviewOrigins: originList('CMS_PREVIEW_ORIGINS', env.CMS_PREVIEW_ORIGINS, '', sandbox),
    testRunnerOrigins: originList('TEST_RUNNER_ORIGINS', env.TEST_RUNNER_ORIGINS, '', sandbox),
    companionTokenSecret: new TextEncoder().encode(companionSecret),
    companionPort,
    processorPort,
    webRoot: env.WEB_ROOT === '' ? undefined : path.resolve(env.WEB_ROOT ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustedProxies(env.TRUST_PROXY),
    ssnEncryptionKey,
    ssnHashKey,
    holdExpirySweepSeconds: sweepSeconds(env.HOLD_EXPIRY_SWEEP_SECONDS),
  };
}

type Lifetime = { fallback: number; min: number; max: number };
// 10 s..1 hour: shorter expires before a slow phone's first call (60, README's auth-modal test, is fine); longer outlives a theft, as an access token cannot be revoked.
const accessTokenLifetime: Lifetime = { fallback: 15 * 60, min: 10, max: 60 * 60 };
// 1 hour..90 days: never shorter than the longest access token it renews; a lost phone's session (unlock code only) ends within a season.
const refreshTokenLifetime: Lifetime = { fallback: 30 * 24 * 60 * 60, min: 60 * 60, max: 90 * 24 * 60 * 60 };

/**
 * ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL: a whole number of seconds within the lifetime's bounds, or unset
 * for its default. Anything else refuses the start: `15m` read as a number is NaN, and every sign-in then failed with 500.
 */
function tokenLifetime(name: string, value: string | undefined, { fallback, min, max }: Lifetime): number {
  const given = value?.trim() ?? '';
  if (given === '') return fallback;
  const seconds = /^\d{1,9}$/.test(given) ? Number(given) : Number.NaN;
  if (!(seconds >= min && seconds <= max)) {
    throw new ConfigError(`${name}="${value}" must be a whole number of seconds from ${min} to ${max} (unset: ${fallback}).`);
  }
  return seconds;
}

/** HOLD_EXPIRY_SWEEP_SECONDS: a whole number of seconds, 0 to run no sweep (writes still expire holds as they meet them). */
function sweepSeconds(value: string | undefined): number {
  const given = value?.trim() || '60';
  if (!/^\d{1,7}$/.test(given)) throw new ConfigError(`HOLD_EXPIRY_SWEEP_SECONDS="${value}" is not a whole number of seconds (0 turns the sweep off).`);
  return Number(given);
}

/** PGLITE_DUMP: a file that exists, or none. */
function pgliteDumpOf(file: string | undefined): string | undefined {
  if (!file) return undefined;
  if (!existsSync(file)) throw new ConfigError(`PGLITE_DUMP=${file}: no such file (a PGlite dumpDataDir() dump to start a new data folder from).`);
  return path.resolve(file);
}
