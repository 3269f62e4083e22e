/**
 * Shared set-up for card API tests: a real app (no web root, no logging) over its own migrated and
 * seeded database, plus small wrappers for the calls most tests make.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { HomeAnswer } from '../../contract/home/types.ts';
import type { RefreshTokensAnswer, SignInAnswer } from '../../contract/session/types.ts';
import type { RegisterAnswer, RegistrationPayload } from '../../contract/identity/types.ts';
import type { FieldErrors, SessionTokens } from '../../contract/shared/answers.ts';
import { buildApp } from '../../server/app.ts';
import { readConfig, type ServerConfig } from '../../server/config.ts';
import { type Database, type OpenDatabase, openDatabase } from '../../server/db/database.ts';
import { attemptLimits, users } from '../../server/db/schema/index.ts';
import { demoCardholder } from '../../server/seed.ts';
import { preparedAtStart } from '../../server/startUp.ts';
import { auditAnswers } from '../support/answerAudit.ts';
import { migratedSnapshot, openTestPGlite, seededSnapshot } from '../support/pgliteSnapshot.ts';
import { hasTestPostgres, testDatabase } from '../support/postgresDatabases.ts';
import type { SsnKeys } from '../../server/ssn.ts';

export { demoCardholder };

/** Exactly the sign-in body the app sends (the API rejects unknown keys). */
export const demoCredentials = { email: demoCardholder.email, password: demoCardholder.password };

export type TestApp = {
  app: FastifyInstance;
  db: Database;
  kind: 'pglite' | 'postgres';
  config: ServerConfig;
  close: () => Promise<void>;
};

/**
 * Production configuration for tests: both signing keys and both SSN keys set, as a real deployment
 * must, and random (production refuses keys committed anywhere, these included).
 */
export const productionEnv = {
  NODE_ENV: 'production',
  TOKEN_SECRET: randomBytes(36).toString('base64url'),
  COMPANION_TOKEN_SECRET: randomBytes(36).toString('base64url'),
  SSN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  SSN_HASH_KEY: randomBytes(32).toString('base64'),
};

/** A test app's configuration (its SSN keys also choose which seeded template it copies). */
function testConfig(options: { env?: NodeJS.ProcessEnv; webRoot?: string } = {}): ServerConfig {
  return readConfig({ COMPANION_ORIGINS: 'http://localhost:8090', ...options.env, WEB_ROOT: options.webRoot ?? '' });
}

/**
 * Builds the app over a seeded database of its own: a copy of this run's seeded template on its real
 * PostgreSQL by default, an in-memory PGlite loaded from this run's seeded snapshot with PG_TESTS=0.
 * `env` overrides configuration the way the environment would; the web app is served only when a
 * `webRoot` folder (with an index.html) is given.
 */
export async function startTestApp(
  options: {
    env?: NodeJS.ProcessEnv;
    /** A database an earlier app used (`restartingOnOneDatabase`): opened and seeded again, as at every start. */
    restartOn?: RestartPlace;
    webRoot?: string;
    /** Request logs go here (at the configured LOG_LEVEL) instead of nowhere. */
    logStream?: NodeJS.WritableStream;
    /**
     * An in-memory PGlite, migrated but empty (this run's dump of every migration applied to a new
     * cluster), seeded here as `npm start` seeds, instead of a copy of a seeded database (for tests of
     * seeding itself).
     */
    freshDatabase?: boolean;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options);
  const { database, drop } = await openTestDatabase(config, options);
  const app = await buildApp(config, database.db, options.logStream ? { logStream: options.logStream } : { logger: false });
  const undocumentedAnswers = auditAnswers(app);
  await app.ready();
  return {
    app,
    db: database.db,
    kind: database.kind,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      expect(undocumentedAnswers(), 'answers the OpenAPI document does not list (contract/openapi.ts documentedAnswers)').toEqual([]);
    },
  };
}

/** Where `restartingOnOneDatabase` keeps its database between apps: a PostgreSQL database or a PGlite folder. */
type RestartPlace = { databaseUrl: string } | { dataDir: string };

/**
 * Restarts of the server on one database: `run` gets `start`, which builds a new app on it each time
 * (preparing it again, as server/main.ts does at every start: server/startUp.ts), so a test shows what survives a restart.
 * The database is a copy of this run's seeded template on its PostgreSQL, or with PG_TESTS=0 a
 * file-backed PGlite in a throwaway folder; it is dropped when `run` ends.
 */
export async function restartingOnOneDatabase(run: (start: () => Promise<TestApp>) => Promise<void>): Promise<void> {
  if (hasTestPostgres()) {
    const copy = await testDatabase(testConfig());
    try {
      await run(() => startTestApp({ restartOn: { databaseUrl: copy.url } }));
    } finally {
      await copy.drop();
    }
    return;
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cards-restarts-'));
  try {
    await run(() => startTestApp({ restartOn: { dataDir } }));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function openTestDatabase(
  keys: SsnKeys,
  options: { restartOn?: RestartPlace; freshDatabase?: boolean },
): Promise<{ database: OpenDatabase; drop: () => Promise<void> }> {
  const keep = async () => {};
  // What server/main.ts does at every start, once migrated.
  const atStart = preparedAtStart({ sandbox: true, ...keys });
  if (options.restartOn && 'databaseUrl' in options.restartOn) {
    const database = await openDatabase({ databaseUrl: options.restartOn.databaseUrl, prepare: atStart });
    return { database, drop: keep };
  }
  if (options.restartOn) {
    // A new folder starts from this run's seeded dump; a used one reopens, seeded again as at every start.
    const { dataDir } = options.restartOn;
    const isNew = (await readdir(dataDir)).length === 0;
    const database = await openTestPGlite({ dataDir, ...(isNew ? { snapshot: await seededSnapshot(keys) } : { prepare: atStart }) });
    return { database, drop: keep };
  }
  if (options.freshDatabase) {
    const database = await openTestPGlite({ snapshot: await migratedSnapshot(), prepare: atStart });
    return { database, drop: keep };
  }
  if (!hasTestPostgres()) return { database: await openTestPGlite({ snapshot: await seededSnapshot(keys) }), drop: keep };
  const copy = await testDatabase(keys);
  return { database: await openDatabase({ databaseUrl: copy.url }), drop: copy.drop };
}

/** describe() for blocks on a real PostgreSQL; PG_TESTS=0 leaves them out where none can start. */
export const describeOnPostgres = describe.runIf(process.env.PG_TESTS !== '0');

/**
 * In a describe block: an app on the run's real PostgreSQL (the default where there is one), started
 * before the block's tests and closed after them. `started` receives the app (and does the block's
 * own set-up).
 */
export function appOnPostgres(started: (app: TestApp) => void | Promise<void>): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp();
    if (app.kind !== 'postgres') throw new Error('This block needs the run\'s PostgreSQL server.');
    await started(app);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  }, 60_000);
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export async function signIn(
  app: FastifyInstance,
  credentials: { email: string; password: string } = demoCredentials,
): Promise<{ access: string; refresh: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: credentials });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<SignInAnswer>();
  expect(body.access).toBeTypeOf('string');
  expect(body.refresh).toBeTypeOf('string');
  return { access: body.access!, refresh: body.refresh! };
}

/** POST /refresh-tokens: the unlock call, presenting a refresh token and the unlock code. */
export async function unlock(
  app: FastifyInstance,
  refresh: string,
  unlockCode: string = demoCardholder.unlockCode,
): Promise<{ status: number; body: RefreshTokensAnswer }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/refresh-tokens',
    headers: bearer(refresh),
    payload: { unlockCode },
  });
  return { status: response.statusCode, body: response.json<RefreshTokensAnswer>() };
}

export async function getHome(app: FastifyInstance, access?: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url: '/api/v1/home', headers: access ? bearer(access) : {} });
}

export async function homeStatus(app: FastifyInstance, access: string): Promise<{ status: number; body: HomeAnswer }> {
  const response = await getHome(app, access);
  return { status: response.statusCode, body: response.json<HomeAnswer>() };
}

export async function demoUser(db: Database) {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${demoCardholder.email})`);
  if (!user) throw new Error('The demo cardholder was not seeded.');
  return user;
}

export async function unlockFailures(db: Database, userId: string): Promise<number> {
  const [row] = await db.select({ unlockFailures: users.unlockFailures }).from(users).where(eq(users.id, userId));
  return row!.unlockFailures;
}

// Registration -------------------------------------------------------------------------------------

export type OutboxMessage = { phone: string; text: string; code: string | null; sentAt: string };

/** GET /sandbox/outbox?phone=: the sandbox SMS gateway's texts to a phone, newest first. */
export async function outbox(app: FastifyInstance, phone: string): Promise<OutboxMessage[]> {
  const response = await app.inject({ method: 'GET', url: `/sandbox/outbox?phone=${encodeURIComponent(phone)}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ messages: OutboxMessage[] }>().messages;
}

export async function requestVerification(app: FastifyInstance, phone: string) {
  return app.inject({ method: 'POST', url: '/api/v1/request-verification', payload: { phone } });
}

export async function verifyPhone(app: FastifyInstance, phone: string, code: string) {
  return app.inject({ method: 'POST', url: '/api/v1/verify-phone', payload: { phone, code } });
}

/** The code the sandbox texted last to a phone. */
export async function lastCode(app: FastifyInstance, phone: string): Promise<string> {
  const [message] = await outbox(app, phone);
  expect(message?.code).toMatch(/^\d{6}$/);
  return message!.code!;
}

/** Texts a code to the phone, reads it from the sandbox outbox and answers it: the mfaToken. */
export async function verifiedMfaToken(app: FastifyInstance, phone: string): Promise<string> {
  const requested = await requestVerification(app, phone);
  expect(requested.json(), requested.body).toEqual({ statusCode: 0 });
  const verified = await verifyPhone(app, phone, await lastCode(app, phone));
  expect(verified.statusCode, verified.body).toBe(200);
  const { mfaToken } = verified.json<{ mfaToken: string }>();
  expect(mfaToken).toBeTypeOf('string');
  return mfaToken;
}

/** Password reset's first steps: a code texted to the phone on file (POST /reset-password), read from the outbox and answered: the mfaToken. */
export async function resetMfaToken(app: FastifyInstance, owner: { email: string; phone: string }): Promise<string> {
  const sent = await app.inject({ method: 'POST', url: '/api/v1/reset-password', payload: { email: owner.email } });
  expect(sent.json(), sent.body).toEqual({ statusCode: 0 });
  const code = await lastCode(app, owner.phone);
  const verified = await app.inject({ method: 'POST', url: '/api/v1/verify/reset-code', payload: { email: owner.email, code } });
  expect(verified.statusCode, verified.body).toBe(200);
  const { mfaToken } = verified.json<{ mfaToken: string }>();
  expect(mfaToken).toBeTypeOf('string');
  return mfaToken;
}

let applicantCount = 0;

/**
 * A new applicant nobody has registered: unique SSN, email, phone and address per call (within a
 * process), valid by every rule, mfaToken still empty. Phones stay clear of the sandbox's landline
 * (…0204) and failing-SMS (…0203) inputs.
 */
export function newApplicant(overrides: Partial<RegistrationPayload> = {}): RegistrationPayload {
  applicantCount += 1;
  const n = applicantCount + (process.pid % 100) * 1000;
  const serial = String(1000 + (n % 8000)).padStart(4, '0');
  const phone = `559${String(3000000 + n).padStart(7, '0')}`;
  if (phone.endsWith('0203') || phone.endsWith('0204')) return newApplicant(overrides);
  return {
    firstName: 'Rosa',
    middleName: 'María',
    lastName: "D'Angelo",
    dob: '07/04/1990',
    ssn: `${String(201 + (n % 400)).padStart(3, '0')}-${String(10 + (Math.floor(n / 400) % 89))}-${serial}`,
    email: `rosa.${n}@example.com`,
    phone,
    mfaToken: '',
    addressLegal: { street1: `${100 + n} W Olive Ave`, street2: '', city: 'Fresno', state: 'CA', zip: '93728' },
    unlockCode: '2468',
    legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' },
    providersUuid: null,
    profile: null,
    ...overrides,
  };
}

/** A /register answer read without narrowing on its statusCode first (tests assert the fields). */
export type RegisterBody = RegisterAnswer & Partial<SessionTokens> & { fieldErrors?: FieldErrors };

/** POST /register with a body as given (any shape) and optional headers. */
export async function register(
  app: FastifyInstance,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: RegisterBody }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/register',
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json<RegisterBody>() };
}

/** A new applicant with a verified phone: ready to register. */
export async function verifiedApplicant(
  app: FastifyInstance,
  overrides: Partial<RegistrationPayload> = {},
): Promise<RegistrationPayload> {
  const applicant = newApplicant(overrides);
  return { ...applicant, mfaToken: await verifiedMfaToken(app, applicant.phone) };
}

// Sign-in limits, texted sign-in codes, SSN checks ----------------------------------------------------

export { mfaCardholder } from '../../server/seed.ts';

/** POST /sign-in with any body. */
export async function signInWith(app: FastifyInstance, payload: object): Promise<{ status: number; body: SignInAnswer }> {
  const response = await app.inject({ method: 'POST', url: '/api/v1/sign-in', payload });
  return { status: response.statusCode, body: response.json<SignInAnswer>() };
}

/** POST to a card API path with a JSON body and, optionally, a bearer token. */
export async function post<T = Record<string, unknown>>(
  app: FastifyInstance,
  url: string,
  payload: object,
  token?: string,
): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  const response = await app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers: token ? bearer(token) : {} });
  // What the call does once it has answered (a texted reset code) is done before the test goes on.
  await app.afterAnswer.settled();
  return { status: response.statusCode, body: response.json<T>(), headers: response.headers };
}

/** A client as the per-client limits count it: its IP, and its Device-UUID when it sends one. */
export type ApiClient = { ip: string; device?: string };

/** POST /api/v1`url` as `client` sends it: a JSON body, from its IP, with its Device-UUID when it has one. */
export function postFrom(app: FastifyInstance, url: string, payload: object, client: ApiClient) {
  return app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    payload,
    headers: client.device === undefined ? {} : { 'device-uuid': client.device },
    remoteAddress: client.ip,
  });
}

/** Clears every sign-in and SSN counter (tests that share an app start from nothing). */
export async function clearAttemptLimits(db: Database): Promise<void> {
  await db.delete(attemptLimits);
}

/** Moves every running lockout of a scope into the past, as if its wait had passed. */
export async function endLockouts(db: Database, scope: 'sign-in' | 'sign-in-account' | 'ssn' | 'reset-code-account' | 'texted-code-phone'): Promise<void> {
  await db
    .update(attemptLimits)
    .set({ lockedUntil: sql`now() - interval '1 second'` })
    .where(and(eq(attemptLimits.scope, scope), isNotNull(attemptLimits.lockedUntil)));
}

/**
 * Captured server log lines without what every line carries and a test cannot choose: the time and
 * response time (any short run of digits turns up in them by chance: a test looking for a street number
 * in the logs once found one there), the process id and the host name. The rest is left as written.
 */
export function withoutRunDetails(logLines: string[]): string {
  return logLines.join('').replace(/"(time|responseTime|pid)":[\d.eE+-]+,?|"hostname":"[^"]*",?/g, '');
}

/** A log to hand a server (`logStream`), and the lines written to it, to search for what must not be there. */
export function capturedLog(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
}
