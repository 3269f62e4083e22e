/**
 * Phone-verification races on a real PostgreSQL (PGlite runs one statement at a time): parallel wrong
 * codes never pass the limit of five (and a guess overtaken by the one that locked the phone is
 * answered with the lock), parallel code requests never text more than five codes, and a right code
 * answered ten times at once gives exactly one mfaToken. (The same-SSN registration race is
 * in postgres.test.ts.) Set PG_TESTS=0 to leave these out where a server cannot start.
 */
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { mfaTokens, phoneVerificationCodes, phoneVerificationLimits } from '../../../server/db/schema/index.ts';
import {
  appOnPostgres,
  describeOnPostgres,
  lastCode,
  newApplicant,
  outbox,
  requestVerification,
  type TestApp,
  verifyPhone,
} from '../helpers.ts';

describeOnPostgres('phone verification on real PostgreSQL', { timeout: 60_000 }, () => {
  let t: TestApp;
  appOnPostgres((app) => void (t = app));

  it('runs against PostgreSQL (control)', () => {
    expect(t.kind).toBe('postgres');
  });

  it('never counts more than five wrong codes for a phone, even when 20 arrive at once', async () => {
    const { phone } = newApplicant();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');

    const answers = await Promise.all(Array.from({ length: 20 }, () => verifyPhone(t.app, phone, wrong)));

    const counted = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json());
    for (const answer of counted) expect(answer.statusCode).toBe(StatusCode.INVALID_MFA_CODE);
    expect(counted.map((answer) => answer.attemptsLeft).sort()).toEqual([1, 2, 3, 4]);
    for (const answer of answers.filter((each) => each.statusCode !== 200)) {
      expect(answer.statusCode).toBe(429);
      expect(answer.json().statusCode).toBe(StatusCode.INVALID_MFA_LIMIT);
    }
    const [limits] = await t.db.select().from(phoneVerificationLimits).where(eq(phoneVerificationLimits.phone, phone));
    expect(limits!.failures).toBe(5);
    expect((await verifyPhone(t.app, phone, code)).statusCode).toBe(429);
  });

  it('compares at most five guesses of a code, even when 30 arrive at once with the right one among them', async () => {
    const { phone } = newApplicant();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 20 ? code : String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')));

    const answers = await Promise.all(guesses.map((guess) => verifyPhone(t.app, phone, guess)));

    // Every guess is counted before it is compared: the rest wait for the lock without being looked at.
    const compared = answers.filter((answer) => answer.statusCode !== 429);
    expect(compared.length).toBeLessThanOrEqual(5);
    const [sent] = await t.db.select({ attempts: phoneVerificationCodes.attempts }).from(phoneVerificationCodes).where(eq(phoneVerificationCodes.phone, phone));
    const accepted = answers.filter((answer) => answer.statusCode === 200 && answer.json().statusCode === StatusCode.SUCCESS).length;
    expect(sent!.attempts + accepted).toBeLessThanOrEqual(5);
  });

  it('answers the lock, not "wrong code", to a guess overtaken by the guess that reached the limit', async () => {
    // The interleaving the 20 parallel guesses above can produce, made certain: this guess has passed
    // the lock check and waits to read the code while another guess locks the phone and voids it.
    const { phone } = newApplicant();
    await requestVerification(t.app, phone);
    const wrong = String((Number(await lastCode(t.app, phone)) + 1) % 1_000_000).padStart(6, '0');

    let overtaken: ReturnType<typeof verifyPhone> | undefined;
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${phoneVerificationCodes} in access exclusive mode`);
      overtaken = verifyPhone(t.app, phone, wrong);
      await waitUntilBlocked(t);
      await tx.update(phoneVerificationLimits).set({ failures: 5, lockedUntil: sql`now() + interval '10 minutes'` }).where(eq(phoneVerificationLimits.phone, phone));
      await tx.update(phoneVerificationCodes).set({ usedAt: sql`now()` }).where(eq(phoneVerificationCodes.phone, phone));
    });
    const answer = await overtaken!;

    expect(answer.statusCode).toBe(429);
    expect(answer.json()).toMatchObject({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
  });

  it('texts at most five codes when 20 requests arrive at once', async () => {
    const { phone } = newApplicant();

    const answers = await Promise.all(Array.from({ length: 20 }, () => requestVerification(t.app, phone)));

    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(15);
    expect(await outbox(t.app, phone)).toHaveLength(5);
  });

  it('gives one mfaToken when the right code arrives ten times at once', async () => {
    const { phone } = newApplicant();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);

    const answers = await Promise.all(Array.from({ length: 10 }, () => verifyPhone(t.app, phone, code)));

    const tokens = answers.map((answer) => answer.json()).filter((answer) => answer.statusCode === StatusCode.SUCCESS);
    expect(tokens).toHaveLength(1);
    expect(await t.db.select().from(mfaTokens).where(eq(mfaTokens.phone, phone))).toHaveLength(1);
  });
});

/** Until a query of the app waits on a table lock (polled, so however slow the machine). */
async function waitUntilBlocked(t: TestApp): Promise<void> {
  for (;;) {
    const { rows } = (await t.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: { waiting: number }[] };
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
