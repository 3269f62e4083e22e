/**
 * The sign-in attempt limit: wrong sign-ins counted in the database per email and client; the fifth
 * in a row makes every sign-in for that email from that client wait 15 minutes (right password
 * included), while the owner elsewhere signs in; a client spraying one password over many emails is
 * refused before any hash; a success starts the email's count again; unknown emails are counted and
 * answered alike, at the same hashing cost; the wait survives a restart.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { and, eq, sql } from 'drizzle-orm';
import {
  createAttemptLimits,
  signInPerAccountPolicy,
  signInPerDevicePolicy,
  signInPerIpPolicy,
  triesBeingCheckedSeconds,
} from '../../../server/attemptLimits.ts';
import { attemptLimits } from '../../../server/db/schema/index.ts';
import { secretHashCost } from '../../../server/secrets.ts';
import {
  clearAttemptLimits,
  demoCardholder,
  demoCredentials,
  endLockouts,
  lastCode,
  mfaCardholder,
  restartingOnOneDatabase,
  signInWith,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

let t: TestApp;
const wrong = { email: demoCardholder.email, password: 'not-the-password' };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAttemptLimits(t.db);
});

async function failTimes(times: number, credentials: { email: string; password: string } = wrong) {
  const answers = [];
  for (let i = 0; i < times; i += 1) answers.push(await signInWith(t.app, credentials));
  return answers;
}

describe('POST /sign-in attempt limit', () => {
  it('answers 401 {100} for the first four wrong passwords and 401 {100, retryAfterSeconds: 900} for the fifth', async () => {
    const answers = await failTimes(5);

    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(0, 4).map((a) => a.body)).toEqual(Array(4).fill({ statusCode: StatusCode.INVALID_CREDENTIALS }));
    expect(answers[4]!.body.statusCode).toBe(StatusCode.INVALID_CREDENTIALS);
    expect(answers[4]!.body.retryAfterSeconds).toBeGreaterThan(890);
    expect(answers[4]!.body.retryAfterSeconds).toBeLessThanOrEqual(900);
  });

  it('refuses the right password while the wait runs, with the time left, and counts nothing more', async () => {
    await failTimes(5);

    const right = await signInWith(t.app, demoCredentials);
    expect(right.status).toBe(401);
    expect(right.body).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds: expect.any(Number) });
    expect(right.body.access).toBeUndefined();
    await failTimes(3);
    const [row] = await t.db.select().from(attemptLimits);
    expect(row!.failures).toBe(5);
  });

  it('lets the right password in once the 15 minutes have passed, and counts afresh', async () => {
    await failTimes(5);
    await endLockouts(t.db, 'sign-in');

    expect((await signInWith(t.app, demoCredentials)).status).toBe(200);
    const rows = await t.db.select().from(attemptLimits);
    // The email's counters start again; the client's across emails keeps its five (a sprayer's own
    // account must not reset it).
    expect(rows.filter((row) => row.scope === 'sign-in' || row.scope === 'sign-in-account').map((row) => row.failures)).toEqual([0, 0]);
    expect(rows.filter((row) => row.scope === 'sign-in-client').map((row) => row.failures)).toEqual([5]);
  });

  it('starts the count again after a success (only failures in a row count)', async () => {
    await failTimes(4);
    expect((await signInWith(t.app, demoCredentials)).status).toBe(200);

    const answers = await failTimes(4);
    expect(answers.every((a) => a.body.retryAfterSeconds === undefined)).toBe(true);
    expect((await signInWith(t.app, demoCredentials)).status).toBe(200);
  });

  it('counts per email, whatever its case, and leaves other emails alone', async () => {
    await failTimes(3);
    await failTimes(2, { email: demoCardholder.email.toUpperCase(), password: 'nope-nope' });

    expect((await signInWith(t.app, demoCredentials)).body.retryAfterSeconds).toBeGreaterThan(0);
    expect((await signInWith(t.app, { email: 'someone.else@providers.test', password: 'whatever1' })).body).toEqual({
      statusCode: StatusCode.INVALID_CREDENTIALS,
    });
  });

  it('answers an unknown email exactly like a known one, lockout included', async () => {
    const unknown = await failTimes(5, { email: 'nobody@providers.test', password: 'not-the-password' });
    await clearAttemptLimits(t.db);
    const known = await failTimes(5);

    expect(unknown.map((a) => a.status)).toEqual(known.map((a) => a.status));
    expect(unknown.map((a) => Object.keys(a.body).sort())).toEqual(known.map((a) => Object.keys(a.body).sort()));
  });

  it('compares at most five passwords of a burst of parallel guesses: the right one after them is refused', async () => {
    // Each try is counted before its password is compared. Counted after, every guess that arrived
    // before the first failure was recorded got compared, and the right one among them signed in.
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 30 ? demoCredentials : { ...wrong, password: `guess-${i}` }));
    const answers = await Promise.all(guesses.map((credentials) => signInWith(t.app, credentials)));

    expect(answers.filter((answer) => answer.status === 200)).toEqual([]);
    expect(answers.map((answer) => answer.body.statusCode)).toEqual(Array(40).fill(StatusCode.INVALID_CREDENTIALS));
    const waits = answers.filter((answer) => answer.body.retryAfterSeconds !== undefined);
    expect(waits.length, 'all but the first four answer with the wait').toBeGreaterThanOrEqual(35);
    // The owner's own device, later, waits too: the email from this client is locked.
    expect((await signInWith(t.app, demoCredentials)).body.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('costs an unknown email the same work as a known one: one scrypt at the same cost (the decoy hash)', async () => {
    // Counted, not timed: the same derivations at the same cost take the same time on any machine,
    // and a timing comparison would fail on a loaded one.
    const derivations = async (credentials: object) => {
      const scrypt = vi.spyOn(crypto, 'scrypt');
      syncBuiltinESMExports();
      try {
        await clearAttemptLimits(t.db);
        expect((await signInWith(t.app, credentials)).status).toBe(401);
        return scrypt.mock.calls.map(([, , keyLength, options]) => ({ keyLength, options }));
      } finally {
        scrypt.mockRestore();
        syncBuiltinESMExports();
      }
    };
    const known = await derivations(wrong);
    const unknown = await derivations({ email: 'nobody@providers.test', password: 'not-the-password' });

    expect(known).toEqual([{ keyLength: 32, options: secretHashCost }]);
    expect(unknown).toEqual(known);
  });
});

describe('the sign-in wait across a restart', () => {
  it('still refuses the right password after the server restarts on the same database', async () => {
    await restartingOnOneDatabase(async (start) => {
      const first = await start();
      for (let i = 0; i < 5; i += 1) await signInWith(first.app, wrong);
      await first.close();

      const second = await start();
      const right = await signInWith(second.app, demoCredentials);
      await second.close();
      expect(right.status).toBe(401);
      expect(right.body.retryAfterSeconds).toBeGreaterThan(0);
    });
  }, 60_000);
});

describe('limits per client, not a weapon against the owner', () => {
  const from = (remoteAddress: string, payload: object, device?: string) =>
    t.app
      .inject({ method: 'POST', url: '/api/v1/sign-in', remoteAddress, payload, headers: device ? { 'device-uuid': device } : {} })
      .then((response) => ({ status: response.statusCode, body: response.json<{ statusCode: number; retryAfterSeconds?: number }>() }));

  it('lets the owner sign in from elsewhere while a stranger who guessed five times waits', async () => {
    for (let i = 0; i < 5; i += 1) await from('203.0.113.9', wrong);
    expect((await from('203.0.113.9', demoCredentials)).body.retryAfterSeconds).toBeGreaterThan(0);

    expect((await from('198.51.100.20', demoCredentials)).status).toBe(200);
  });

  it('slows a client spraying one password over many accounts, and refuses it before hashing', async () => {
    const answers = [];
    for (let i = 0; i < signInPerIpPolicy.limit; i += 1) answers.push(await from('203.0.113.50', { email: `sprayed.${i}@example.com`, password: 'Summer2026!' }));
    expect(answers.slice(0, -1).every((answer) => answer.body.retryAfterSeconds === undefined)).toBe(true);
    expect(answers.at(-1)!.body.retryAfterSeconds).toBeGreaterThan(890);

    // The next accounts, the real one included, are refused without a password being hashed.
    const scrypt = vi.spyOn(crypto, 'scrypt');
    syncBuiltinESMExports();
    try {
      for (let i = 0; i < 10; i += 1) {
        const refused = await from('203.0.113.50', { email: `more.${i}@example.com`, password: 'Summer2026!' });
        expect(refused).toEqual({ status: 401, body: { statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds: expect.any(Number) } });
      }
      expect((await from('203.0.113.50', demoCredentials)).status).toBe(401);
      expect(scrypt).not.toHaveBeenCalled();
    } finally {
      scrypt.mockRestore();
      syncBuiltinESMExports();
    }
    // Another client is not slowed.
    expect((await from('198.51.100.21', demoCredentials)).status).toBe(200);
  });

  it("never locks a shared IP (a carrier's NAT) on other people's typos spread over time", async () => {
    const typos = async (round: number) => {
      for (let i = 0; i < signInPerIpPolicy.limit - 1; i += 1) {
        expect((await from('203.0.113.70', { email: `neighbour.${round}.${i}@example.com`, password: 'x-wrong-1' })).body.retryAfterSeconds).toBeUndefined();
      }
    };
    await typos(1);
    // A quarter of an hour later, as many again: the IP's count started again, nobody waits.
    await t.db
      .update(attemptLimits)
      .set({
        lastTryAt: sql`now() - make_interval(mins => ${signInPerIpPolicy.lockoutMinutes})`,
        lastFailureAt: sql`now() - make_interval(mins => ${signInPerIpPolicy.lockoutMinutes})`,
      })
      .where(eq(attemptLimits.scope, signInPerIpPolicy.scope));
    await typos(2);
    expect((await from('203.0.113.70', demoCredentials)).status).toBe(200);
  });

  it('does not lock on a burst of right sign-ins: the tries past the count while others are checked are told to wait a moment', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => from('203.0.113.80', demoCredentials)));
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    // How many overlap depends on timing; spentAttemptCounters.test.ts holds the tries being checked for certain.
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds: triesBeingCheckedSeconds });
    }
    expect((await from('203.0.113.80', demoCredentials)).status).toBe(200);
  });

  it('slows one Device-UUID sooner than its IP, which others may share', async () => {
    const device = 'd6f4e5a7-8192-4d4e-9f50-6b7c8d9e0f1a';
    for (let i = 0; i < signInPerDevicePolicy.limit; i += 1) await from('203.0.113.60', { email: `d.${i}@example.com`, password: 'x-wrong-1' }, device);
    expect((await from('203.0.113.60', demoCredentials, device)).body.retryAfterSeconds).toBeGreaterThan(0);
    expect((await from('203.0.113.60', demoCredentials, 'e7a5f6b8-92a3-4e5f-a061-7c8d9e0f1a2b')).status).toBe(200);
  });

  it('holds the account itself after 100 wrong in a row from anywhere', async () => {
    await t.db
      .insert(attemptLimits)
      .values({ scope: signInPerAccountPolicy.scope, subject: demoCardholder.email, failures: signInPerAccountPolicy.limit - 1 });
    const last = await from('192.0.2.77', wrong);
    expect(last.body.retryAfterSeconds).toBeGreaterThan(890);
    expect((await from('198.51.100.22', demoCredentials)).body.retryAfterSeconds).toBeGreaterThan(0);
    const [row] = await t.db
      .select()
      .from(attemptLimits)
      .where(and(eq(attemptLimits.scope, signInPerAccountPolicy.scope), eq(attemptLimits.subject, demoCardholder.email)));
    expect(row!.lockedUntil).not.toBeNull();
  });

  // NIST SP 800-63B §5.2.2: the account's failures in a row are limited, not merely slowed: the wait's
  // end does not start the count again (it did: 100 more guesses every 15 minutes, from enough addresses).
  it("counts on after the account's wait: one try per wait, each wait twice the last, until the right password", async () => {
    await t.db
      .insert(attemptLimits)
      .values({ scope: signInPerAccountPolicy.scope, subject: demoCardholder.email, failures: signInPerAccountPolicy.limit - 1 });
    expect((await from('192.0.2.77', wrong)).body.retryAfterSeconds).toBeGreaterThan(890);

    const waits = [];
    for (const ip of ['192.0.2.78', '192.0.2.79', '192.0.2.80']) {
      await endLockouts(t.db, 'sign-in-account');
      waits.push((await from(ip, wrong)).body.retryAfterSeconds);
      // One try per wait: the next, from yet another address, is not compared.
      expect((await from('198.51.100.40', demoCredentials)).status).toBe(401);
    }
    expect(waits.map((wait) => Math.round(wait! / 60))).toEqual([30, 60, 120]);
    // Hourly cleaning keeps the count once the wait ends.
    await endLockouts(t.db, 'sign-in-account');
    await createAttemptLimits(t.db).deleteSpent();
    const [row] = await t.db.select().from(attemptLimits).where(eq(attemptLimits.scope, signInPerAccountPolicy.scope));
    expect(row!.failures).toBe(signInPerAccountPolicy.limit + 3);

    // The right password is compared after the wait, lets the owner in and ends the count.
    expect((await from('198.51.100.41', demoCredentials)).status).toBe(200);
    const [after] = await t.db.select().from(attemptLimits).where(eq(attemptLimits.scope, signInPerAccountPolicy.scope));
    expect(after!.failures).toBe(0);
  });

  // The right password gives its try back: the wait stays over, so the same sign-in sent again with its
  // texted code, or the owner's after a stranger's request another counter refused, is compared.
  it("lets a cardholder who needs a texted code in past the account's ceiling: the code's request is compared too", async () => {
    await t.db.insert(attemptLimits).values({ scope: signInPerAccountPolicy.scope, subject: mfaCardholder.email, failures: signInPerAccountPolicy.limit + 1, lockedUntil: new Date(Date.now() - 1000) });
    const credentials = { email: mfaCardholder.email, password: mfaCardholder.password };
    expect((await from('198.51.100.60', credentials)).body.statusCode).toBe(StatusCode.MFA_REQUIRED);

    const signedIn = await from('198.51.100.60', { ...credentials, code: await lastCode(t.app, mfaCardholder.phone) });
    expect(signedIn.status).toBe(200);
  });

  it("lets the owner in past the account's ceiling after a stranger's request another counter refused", async () => {
    await t.db.insert(attemptLimits).values([
      { scope: signInPerAccountPolicy.scope, subject: demoCardholder.email, failures: signInPerAccountPolicy.limit + 3, lockedUntil: new Date(Date.now() - 1000) },
      // The stranger's own address is waiting for this email.
      { scope: 'sign-in', subject: `${demoCardholder.email} ip:203.0.113.9`, failures: 5, lockedUntil: new Date(Date.now() + 600_000) },
    ]);
    expect((await from('203.0.113.9', wrong)).body.retryAfterSeconds).toBeGreaterThan(0);

    expect((await from('198.51.100.61', demoCredentials)).status).toBe(200);
  });

  it("waits at most 8 hours past the account's limit", async () => {
    await t.db
      .insert(attemptLimits)
      .values({ scope: signInPerAccountPolicy.scope, subject: demoCardholder.email, failures: signInPerAccountPolicy.limit + 40 });
    const wait = (await from('192.0.2.90', wrong)).body.retryAfterSeconds ?? 0;
    expect(wait).toBeGreaterThan(8 * 3600 - 10);
    expect(wait).toBeLessThanOrEqual(8 * 3600);
  });
});
