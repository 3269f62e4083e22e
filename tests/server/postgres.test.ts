/**
 * Races that only a real PostgreSQL can show (PGlite runs one statement at a time): parallel wrong
 * unlock codes must not get past the five-attempt limit, and one refresh token must not be spent
 * twice. Starts a throwaway server; set PG_TESTS=0 to leave these out where that is impossible.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, expect, it } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { accounts, attemptLimits, cards, phoneVerificationCodes, refreshTokens, ssnTokens, users } from '../../server/db/schema/index.ts';
import { ssnHash } from '../../server/ssn.ts';
import {
  appOnPostgres,
  bearer,
  clearAttemptLimits,
  demoCardholder,
  demoCredentials,
  demoUser,
  describeOnPostgres,
  getHome,
  lastCode,
  mfaCardholder,
  post,
  register,
  signIn,
  signInWith,
  type TestApp,
  unlock,
  unlockFailures,
  verifiedApplicant,
} from './helpers.ts';

describeOnPostgres('on real PostgreSQL', { timeout: 60_000 }, () => {
  let t: TestApp;
  let userId: string;

  appOnPostgres(async (app) => {
    t = app;
    userId = (await demoUser(t.db)).id;
  });
  beforeEach(async () => {
    await t.db.update(users).set({ unlockFailures: 0 }).where(eq(users.id, userId));
  });

  it('runs against PostgreSQL, not PGlite (control)', async () => {
    expect(t.kind).toBe('postgres');
    const [row] = await t.db.select({ version: sql<string>`version()` }).from(users).limit(1);
    expect(row!.version).toMatch(/^PostgreSQL \d+/);
  });

  it('never counts more than five wrong unlock codes, even when 20 arrive at once', async () => {
    const { refresh } = await signIn(t.app);

    const answers = await Promise.all(Array.from({ length: 20 }, () => unlock(t.app, refresh, '1111')));

    // Every answer is a refusal: a wrong code, or (once the limit is reached) sign-in required.
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect([StatusCode.INVALID_REFRESH_CREDENTIALS, StatusCode.SIGN_IN_REQUIRED]).toContain(answer.body.statusCode);
    }
    expect(await unlockFailures(t.db, userId)).toBe(5);
    const stillCounting = answers
      .filter((answer) => answer.body.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS && answer.body.attemptsLeft! > 0)
      .map((answer) => answer.body.attemptsLeft)
      .sort((a, b) => a! - b!);
    expect(stillCounting).toEqual([1, 2, 3, 4]);
  });

  it('counts wrong current codes of Manage account and wrong unlock codes against one limit of five, even when 20 arrive at once', async () => {
    const { access, refresh } = await signIn(t.app);
    const [before] = await t.db.select({ hash: users.unlockCodeHash }).from(users).where(eq(users.id, userId));
    const guess = (i: number) =>
      i % 2 === 0
        ? unlock(t.app, refresh, '1111')
        : t.app
            .inject({ method: 'POST', url: '/api/v1/set-unlock-code', headers: bearer(access), payload: { currentUnlockCode: '1111', unlockCode: '8642' } })
            .then((response) => ({ status: response.statusCode, body: response.json() as { statusCode: number; attemptsLeft?: number } }));

    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(i)));

    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect([StatusCode.INVALID_REFRESH_CREDENTIALS, StatusCode.SIGN_IN_REQUIRED]).toContain(answer.body.statusCode);
    }
    expect(await unlockFailures(t.db, userId)).toBe(5);
    const stillCounting = answers
      .filter((answer) => answer.body.statusCode === StatusCode.INVALID_REFRESH_CREDENTIALS && answer.body.attemptsLeft! > 0)
      .map((answer) => answer.body.attemptsLeft)
      .sort((a, b) => a! - b!);
    expect(stillCounting).toEqual([1, 2, 3, 4]);
    const [after] = await t.db.select({ hash: users.unlockCodeHash }).from(users).where(eq(users.id, userId));
    expect(after!.hash).toBe(before!.hash);
  });

  it('locks the session after a parallel burst of wrong codes', async () => {
    const { access, refresh } = await signIn(t.app);
    await Promise.all(Array.from({ length: 20 }, () => unlock(t.app, refresh, '1111')));

    const rightCode = await unlock(t.app, refresh);
    expect(rightCode.status).toBe(401);
    expect(rightCode.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const home = await t.app.inject({ method: 'GET', url: '/api/v1/home', headers: { authorization: `Bearer ${access}` } });
    expect(home.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('keeps a lockout that wrong codes reach beside a right one: the right code neither gives its try back nor clears the count', async () => {
    for (let round = 0; round < 5; round += 1) {
      await t.db.update(users).set({ unlockFailures: 0 }).where(eq(users.id, userId));
      const owner = await signIn(t.app);
      const thief = await signIn(t.app);
      const answers = await Promise.all([unlock(t.app, owner.refresh), ...Array.from({ length: 5 }, () => unlock(t.app, thief.refresh, '1111'))]);

      // A wrong code took the last try: every session ended, and only /reset-unlock-code ends the lockout.
      if (answers.some((answer) => answer.body.attemptsLeft === 0)) {
        expect(await unlockFailures(t.db, userId), JSON.stringify(answers)).toBe(5);
        expect((await unlock(t.app, (await signIn(t.app)).refresh)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      }
    }
  });

  it('spends a refresh token at most once when 10 unlocks with the right code arrive at once', async () => {
    const { access, refresh } = await signIn(t.app);

    const answers = await Promise.all(Array.from({ length: 10 }, () => unlock(t.app, refresh)));

    const successes = answers.filter((answer) => answer.body.statusCode === StatusCode.SUCCESS);
    expect(successes.length).toBeLessThanOrEqual(1);
    for (const answer of answers.filter((each) => each.body.statusCode !== StatusCode.SUCCESS)) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    }
    // At most one successor token exists in the family: the original plus zero or one rotation.
    const family = await t.db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(eq(refreshTokens.familyId, String(decodeJwt(access).sid)));
    expect(family.length).toBeLessThanOrEqual(2);
  });

  it('keeps the session when two tabs of one device unlock with one refresh token at once', async () => {
    const { refresh } = await signIn(t.app);
    const device = 'c5e3d4f6-7081-4c3d-8e4f-5a6b7c8d9e0f';
    const both = await Promise.all(
      [1, 2].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/refresh-tokens',
          headers: { authorization: `Bearer ${refresh}`, 'device-uuid': device },
          payload: { unlockCode: demoCardholder.unlockCode },
        }),
      ),
    );
    expect(both.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(both[0]!.json().refresh).toBe(both[1]!.json().refresh);
    expect((await getHome(t.app, both[1]!.json().access)).statusCode).toBe(200);
  });

  it('opens exactly one account when ten registrations with the same SSN arrive at once', async () => {
    const ssn = '345-67-8912';
    // Ten people (own email, phone, address, verified phone) claiming one SSN.
    const applicants = [];
    for (let i = 0; i < 10; i += 1) applicants.push(await verifiedApplicant(t.app, { ssn }));
    const [accountsBefore] = await t.db.select({ count: sql<number>`count(*)::int` }).from(accounts);
    const [cardsBefore] = await t.db.select({ count: sql<number>`count(*)::int` }).from(cards);

    const answers = await Promise.all(applicants.map((applicant) => register(t.app, applicant)));

    const successes = answers.filter((answer) => answer.status === 200);
    expect(successes).toHaveLength(1);
    expect(successes[0]!.body.statusCode).toBe(StatusCode.SUCCESS);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ statusCode: 2 });
    }
    const holders = await t.db.select({ id: users.id }).from(users).where(eq(users.ssnHash, ssnHash(ssn, t.config.ssnHashKey)));
    expect(holders).toHaveLength(1);
    // The refused ones left nothing behind: one new account, one new card.
    const [accountsAfter] = await t.db.select({ count: sql<number>`count(*)::int` }).from(accounts);
    const [cardsAfter] = await t.db.select({ count: sql<number>`count(*)::int` }).from(cards);
    expect(accountsAfter!.count - accountsBefore!.count).toBe(1);
    expect(cardsAfter!.count - cardsBefore!.count).toBe(1);
  });

  it('keeps serving after PostgreSQL drops its idle connections', async () => {
    const { access } = await signIn(t.app);
    await Promise.all(Array.from({ length: 5 }, () => getHome(t.app, access)));

    // Another session kills every other backend, the way a database restart or failover would.
    await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`);
    await delay(200);

    const home = await getHome(t.app, access);
    expect(home.statusCode).toBe(200);
    expect(home.json().statusCode).toBe(StatusCode.SUCCESS);
  });
});

describeOnPostgres('auth limits on real PostgreSQL', { timeout: 60_000 }, () => {
  let t: TestApp;
  appOnPostgres((app) => void (t = app));

  it('never counts more than five wrong sign-ins, even when 20 arrive at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => signInWith(t.app, { email: demoCredentials.email, password: 'wrong-password' })),
    );

    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.statusCode).toBe(StatusCode.INVALID_CREDENTIALS);
    }
    // The client's counter (email and IP: `subject ip`) is the one that locks at five. The account's own
    // counter (limit 100) has the same scope, so picking "a sign-in row" read either one, whichever the
    // database returned first: the test passed or failed by row order.
    const rows = await t.db.select().from(attemptLimits).where(eq(attemptLimits.scope, 'sign-in'));
    const row = rows.find((candidate) => candidate.subject.includes(' '));
    expect(row!.failures).toBe(5);
    expect(row!.lockedUntil).not.toBeNull();
    // The right password waits too.
    expect((await signInWith(t.app, demoCredentials)).body.retryAfterSeconds).toBeGreaterThan(0);
    await clearAttemptLimits(t.db);
  });

  it('answers /reset-password before the code is texted: an email with an account takes no longer than one without', async () => {
    // The text cannot be written while this transaction holds its table: an answer that waited for
    // the text would never come (the test's time limit would end it).
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table sandbox_sms_outbox in exclusive mode`);
      const answer = await t.app.inject({ method: 'POST', url: '/api/v1/reset-password', payload: { email: demoCredentials.email } });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    });
    // Then the text arrives, with a code that works.
    const code = await lastCode(t.app, demoCardholder.phone);
    expect((await post(t.app, '/verify/reset-code', { email: demoCredentials.email, code })).body).toMatchObject({ statusCode: StatusCode.SUCCESS });
  });

  it('compares at most five password reset codes of an email, even when 30 arrive at once with the right one among them', async () => {
    const email = demoCredentials.email;
    expect((await post(t.app, '/reset-password', { email })).status).toBe(200);
    const code = await lastCode(t.app, demoCardholder.phone);
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 20 ? code : String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')));

    const answers = await Promise.all(guesses.map((guess) => post(t.app, '/verify/reset-code', { email, code: guess })));

    expect(answers.filter((answer) => answer.status !== 429).length).toBeLessThanOrEqual(5);
  });

  it("counts a reset code against the email before comparing it: with one try left, of two codes sent at once only one is compared", async () => {
    // The burst above bounds the route as a whole, where the phone's own count also holds; this one
    // shows the email's count alone (the phone has all its tries).
    const email = mfaCardholder.email;
    expect((await post(t.app, '/reset-password', { email })).status).toBe(200);
    const code = await lastCode(t.app, mfaCardholder.phone);
    await t.db.insert(attemptLimits).values({ scope: 'reset-code', subject: email.toLowerCase(), failures: 4 });
    const wrong = (offset: number) => String((Number(code) + offset) % 1_000_000).padStart(6, '0');

    const answers = await Promise.all([1, 2].map((offset) => post(t.app, '/verify/reset-code', { email, code: wrong(offset) })));

    expect(answers.map((answer) => answer.status)).toEqual([429, 429]);
    const [sent] = await t.db
      .select({ attempts: phoneVerificationCodes.attempts })
      .from(phoneVerificationCodes)
      .where(and(eq(phoneVerificationCodes.phone, mfaCardholder.phone), eq(phoneVerificationCodes.purpose, 'reset-password')))
      .orderBy(desc(phoneVerificationCodes.createdAt))
      .limit(1);
    expect(sent!.attempts).toBe(1);
  });

  it('resets the unlock code exactly once when 10 resets with the same ssnToken arrive at once', async () => {
    // Ten sessions of the cardholder, so only the ssnToken is shared.
    const sessions = [];
    for (let i = 0; i < 10; i += 1) sessions.push(await signIn(t.app));
    const verified = await post<{ ssnToken: string }>(t.app, '/verify/ssn/logged-in-refresh-token', { ssn: demoCardholder.ssn }, sessions[0]!.refresh);
    expect(verified.status).toBe(200);

    const answers = await Promise.all(
      sessions.map((session, i) =>
        post(t.app, '/reset-unlock-code', { ssnToken: verified.body.ssnToken, unlockCode: `86${String(10 + i)}` }, session.refresh),
      ),
    );

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { ssnToken: 'ssnToken.unverified' } });
    }
    const [token] = await t.db.select().from(ssnTokens);
    expect(token!.usedAt).not.toBeNull();
  });
});
