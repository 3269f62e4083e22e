/**
 * Phone verification for registration: texted codes (random, keyed-hashed at rest, 10 minutes, single
 * use, only the newest counts), wrong-code counting and the 10-minute lockout, the code-request limit,
 * all kept in the database so a restart changes nothing; plus the email and phone look-ups.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationMessage as M } from '../../../contract/rules.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { buildApp } from '../../../server/app.ts';
import type { Database } from '../../../server/db/database.ts';
import { createSandboxSmsGateway } from '../../../server/partners/sms.ts';
import { createTextedCodes } from '../../../server/textedCodes.ts';
import { attemptLimits, phoneVerificationCodes, phoneVerificationLimits, sandboxSmsOutbox } from '../../../server/db/schema/index.ts';
import { textedCodesInARowPolicy } from '../../../server/attemptLimits.ts';
import {
  demoCardholder,
  endLockouts,
  lastCode,
  newApplicant,
  outbox,
  register,
  requestVerification,
  restartingOnOneDatabase,
  startTestApp,
  type TestApp,
  verifyPhone,
} from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const freshPhone = () => newApplicant().phone;
/** A 6-digit code that is not `code`. */
const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function limitsOf(phone: string) {
  const [row] = await t.db.select().from(phoneVerificationLimits).where(eq(phoneVerificationLimits.phone, phone));
  return row;
}

describe('POST /request-verification', () => {
  it('texts a random 6-digit code, readable only in the sandbox outbox', async () => {
    const phone = freshPhone();

    const response = await requestVerification(t.app, `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    const [message, ...older] = await outbox(t.app, phone);
    expect(older).toEqual([]);
    expect(message).toEqual({ phone, text: expect.stringContaining(message!.code!), code: expect.stringMatching(/^\d{6}$/), sentAt: expect.any(String) });
    expect(message!.text).toMatch(/expires in 10 minutes/);
    // Spanish readers get their own line: the server does not know which language the reader reads.
    expect(message!.text.split('\n')[1]).toBe(`Su código de verificación de Providers es ${message!.code}. Vence en 10 minutos. No lo comparta con nadie.`);
  });

  it('stores the code only as a keyed hash that expires within 10 minutes', async () => {
    const phone = freshPhone();
    const before = Date.now();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);

    const rows = await t.db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.phone, phone));

    expect(rows).toHaveLength(1);
    expect(rows[0]!.codeHash).not.toContain(code);
    expect(rows[0]!.codeHash).toMatch(/^[\w-]{43}$/);
    expect(rows[0]!.usedAt).toBeNull();
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThan(before + 9 * 60_000);
    expect(rows[0]!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
  });

  it('draws a different code each time', async () => {
    const phone = freshPhone();
    for (let i = 0; i < 4; i += 1) await requestVerification(t.app, phone);
    const codes = (await outbox(t.app, phone)).map((message) => message.code);
    expect(codes).toHaveLength(4);
    expect(new Set(codes).size).toBeGreaterThan(1);
  });

  it.each([
    ['a 9-digit phone', '559201447'],
    ['a phone starting with 1', '1592014477'],
    ['a phone starting with 0', '0592014477'],
    ['an empty phone', ''],
  ])('answers INVALID_PHONE_NUMBER (202) for %s and texts nothing', async (_name, phone) => {
    const response = await requestVerification(t.app, phone);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PHONE_NUMBER });
  });

  it.each([
    ['a number', { phone: 5592014477 }],
    ['an unknown key', { phone: '5592014477', channel: 'voice' }],
    ['no phone', {}],
  ])('answers INVALID_PARAMETERS for %s', async (_name, payload) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/request-verification', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('answers INVALID_PHONE_LANDLINE (204) for a landline (sandbox: line number 0204) and texts nothing', async () => {
    const response = await requestVerification(t.app, '559-301-0204');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PHONE_LANDLINE });
    expect(await outbox(t.app, '5593010204')).toEqual([]);
  });

  it('answers MFA_ERROR (203) when the SMS gateway fails (sandbox: line number 0203), and that code never works', async () => {
    const phone = '5593010203';
    const response = await requestVerification(t.app, phone);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.MFA_ERROR });
    expect(await outbox(t.app, phone)).toEqual([]);
    const rows = await t.db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.phone, phone));
    expect(rows.every((row) => row.usedAt !== null)).toBe(true);
  });

  it('texts at most 5 codes per phone in 10 minutes, then answers INVALID_MFA_LIMIT (201) with the wait', async () => {
    const phone = freshPhone();
    for (let i = 0; i < 5; i += 1) expect((await requestVerification(t.app, phone)).json().statusCode).toBe(StatusCode.SUCCESS);

    const sixth = await requestVerification(t.app, phone);

    expect(sixth.statusCode).toBe(429);
    const body = sixth.json();
    expect(body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(body.retryAfterSeconds).toBeGreaterThan(590);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(sixth.headers['retry-after']).toBe(String(body.retryAfterSeconds));
    expect(await outbox(t.app, phone)).toHaveLength(5);

    // Ten minutes later (the window moved into the past), codes flow again.
    await t.db
      .update(phoneVerificationLimits)
      .set({ windowStartedAt: new Date(Date.now() - 10 * 60_000 - 1000) })
      .where(eq(phoneVerificationLimits.phone, phone));
    expect((await requestVerification(t.app, phone)).json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });
});

describe('POST /verify-phone', () => {
  it('answers SUCCESS with an mfaToken for the right code, and spends the code', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);

    const right = await verifyPhone(t.app, phone, code);

    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ statusCode: StatusCode.SUCCESS, mfaToken: expect.stringMatching(/^[\w-]{43}$/) });
    const again = await verifyPhone(t.app, phone, code);
    expect(again.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE });
  });

  it('counts wrong codes down, then locks the phone for 10 minutes, the right code included', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);
    const wrong = wrongCodeFor(code);

    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await verifyPhone(t.app, phone, wrong)).json());
    expect(answers).toEqual([4, 3, 2, 1].map((attemptsLeft) => ({ statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft })));

    const fifth = await verifyPhone(t.app, phone, wrong);
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(fifth.json().retryAfterSeconds).toBeGreaterThan(590);
    expect(fifth.json().retryAfterSeconds).toBeLessThanOrEqual(600);

    const rightDuringWait = await verifyPhone(t.app, phone, code);
    expect(rightDuringWait.statusCode).toBe(429);
    expect(rightDuringWait.json().statusCode).toBe(StatusCode.INVALID_MFA_LIMIT);
    const newCodeDuringWait = await requestVerification(t.app, phone);
    expect(newCodeDuringWait.statusCode).toBe(429);
    expect(newCodeDuringWait.json().statusCode).toBe(StatusCode.INVALID_MFA_LIMIT);
    expect((await limitsOf(phone))!.failures).toBe(5);
  });

  it('after the wait, the old code is void, a new one works and the count starts again', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const oldCode = await lastCode(t.app, phone);
    for (let i = 0; i < 5; i += 1) await verifyPhone(t.app, phone, wrongCodeFor(oldCode));
    await t.db
      .update(phoneVerificationLimits)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(phoneVerificationLimits.phone, phone));

    expect((await verifyPhone(t.app, phone, oldCode)).json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE });
    await requestVerification(t.app, phone);
    const newCode = await lastCode(t.app, phone);
    expect((await verifyPhone(t.app, phone, wrongCodeFor(newCode))).json()).toEqual({
      statusCode: StatusCode.INVALID_MFA_CODE,
      attemptsLeft: 4,
    });
    expect((await verifyPhone(t.app, phone, newCode)).json().statusCode).toBe(StatusCode.SUCCESS);
    expect(await limitsOf(phone)).toMatchObject({ failures: 0, lockedUntil: null });
  });

  // NIST SP 800-63B §5.2.2: failures in a row are limited, not merely slowed. The phone's 10-minute
  // waits alone started again after each: anyone may ask codes for any phone, 720 guesses a day.
  it('bounds wrong codes in a row at 100 per phone, however far apart: then one per wait, each twice the last, until the right code', async () => {
    const phone = freshPhone();
    await t.db.insert(attemptLimits).values({ scope: textedCodesInARowPolicy.scope, subject: `register ${phone}`, failures: textedCodesInARowPolicy.limit - 1 });
    await requestVerification(t.app, phone);
    const hundredth = await verifyPhone(t.app, phone, wrongCodeFor(await lastCode(t.app, phone)));
    // The phone's own count is at 1 of 5: the ceiling's 15 minutes, and the code is void.
    expect(hundredth.statusCode).toBe(429);
    expect(hundredth.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(hundredth.json().retryAfterSeconds).toBeGreaterThan(890);
    // While it waits no code is texted (none could be checked), though the phone's own window has room.
    const textsBefore = (await outbox(t.app, phone)).length;
    const asked = await requestVerification(t.app, phone);
    expect(asked.statusCode).toBe(429);
    expect(asked.json()).toMatchObject({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(await outbox(t.app, phone)).toHaveLength(textsBefore);
    const waits = [];
    for (let i = 0; i < 2; i += 1) {
      await endLockouts(t.db, 'texted-code-phone');
      await t.db.delete(phoneVerificationLimits).where(eq(phoneVerificationLimits.phone, phone));
      await requestVerification(t.app, phone);
      const code = await lastCode(t.app, phone);
      const wrong = await verifyPhone(t.app, phone, wrongCodeFor(code));
      expect(wrong.statusCode).toBe(429);
      waits.push(wrong.json().retryAfterSeconds);
    }
    expect(waits.map((wait) => Math.round(wait / 60))).toEqual([30, 60]);

    await endLockouts(t.db, 'texted-code-phone');
    await requestVerification(t.app, phone);
    expect((await verifyPhone(t.app, phone, await lastCode(t.app, phone))).json().statusCode).toBe(StatusCode.SUCCESS);
    const [row] = await t.db.select().from(attemptLimits).where(and(eq(attemptLimits.scope, textedCodesInARowPolicy.scope), eq(attemptLimits.subject, `register ${phone}`)));
    expect(row!.failures).toBe(0);
  });

  it('keeps counting across new codes: asking for another code does not reset the wrong guesses', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    for (let i = 0; i < 3; i += 1) await verifyPhone(t.app, phone, wrongCodeFor(await lastCode(t.app, phone)));
    await requestVerification(t.app, phone);

    const answer = await verifyPhone(t.app, phone, wrongCodeFor(await lastCode(t.app, phone)));

    expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: 1 });
  });

  it('refuses an expired code without counting it', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);
    await t.db
      .update(phoneVerificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(phoneVerificationCodes.phone, phone));

    const answer = await verifyPhone(t.app, phone, code);

    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE });
    expect((await limitsOf(phone))!.failures).toBe(0);
  });

  it('refuses a code once used', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const code = await lastCode(t.app, phone);
    expect((await verifyPhone(t.app, phone, code)).json().statusCode).toBe(StatusCode.SUCCESS);

    expect((await verifyPhone(t.app, phone, code)).json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE });
  });

  it('accepts only the newest code', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const first = await lastCode(t.app, phone);
    await requestVerification(t.app, phone);
    const second = await lastCode(t.app, phone);
    if (first === second) return; // one in a million: nothing to tell apart

    expect((await verifyPhone(t.app, phone, first)).json().statusCode).toBe(StatusCode.INVALID_MFA_CODE);
    expect((await verifyPhone(t.app, phone, second)).json().statusCode).toBe(StatusCode.SUCCESS);
  });

  it("refuses another phone's code", async () => {
    const [phone, other] = [freshPhone(), freshPhone()];
    await requestVerification(t.app, phone);
    await requestVerification(t.app, other);

    const answer = await verifyPhone(t.app, other, await lastCode(t.app, phone));

    expect(answer.json().statusCode).toBe(StatusCode.INVALID_MFA_CODE);
  });

  it('answers INVALID_MFA_CODE without counting when no code was ever sent', async () => {
    const answer = await verifyPhone(t.app, freshPhone(), '123456');
    expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE });
  });

  it('takes a phone written with its +1 country code (E.164) as its 10 digits, from the code to the account', async () => {
    const phone = freshPhone();
    expect((await requestVerification(t.app, `+1 (${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`)).json()).toEqual({ statusCode: StatusCode.SUCCESS });
    const [message] = await outbox(t.app, phone);
    expect(message).toMatchObject({ phone });

    const verified = await verifyPhone(t.app, `+1${phone}`, message!.code!);
    expect(verified.json()).toEqual({ statusCode: StatusCode.SUCCESS, mfaToken: expect.any(String) });
    const applicant = newApplicant({ phone: `+1 ${phone}` });
    const registered = await register(t.app, { ...applicant, mfaToken: verified.json().mfaToken });
    expect(registered.body).toMatchObject({ statusCode: StatusCode.SUCCESS });
    const user = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${registered.body.access}` } });
    expect(user.json().user.phone).toBe(phone);
    // In use, however it is written.
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/phone-number-in-use', payload: { phone: `+1 ${phone}` } })).json()).toMatchObject({ inUse: true });
  });

  it('answers INVALID_PHONE_NUMBER for a phone that breaks the rules', async () => {
    expect((await verifyPhone(t.app, '1592014477', '123456')).json()).toEqual({ statusCode: StatusCode.INVALID_PHONE_NUMBER });
  });

  it.each([
    ['5 digits', '12345'],
    ['7 digits', '1234567'],
    ['letters', '12a456'],
  ])('answers INVALID_PARAMETERS for a code of %s, without counting it', async (_name, code) => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    const answer = await verifyPhone(t.app, phone, code);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect((await limitsOf(phone))!.failures).toBe(0);
  });
});

describe('the lockout across a restart', () => {
  it('still holds in a new app instance on the same database', async () => {
    await restartingOnOneDatabase(async (start) => {
      const phone = freshPhone();
      const first = await start();
      let code: string;
      try {
        await requestVerification(first.app, phone);
        code = await lastCode(first.app, phone);
        for (let i = 0; i < 5; i += 1) await verifyPhone(first.app, phone, wrongCodeFor(code));
      } finally {
        await first.close();
      }

      const second = await start();
      try {
        const answer = await verifyPhone(second.app, phone, code);
        expect(answer.statusCode).toBe(429);
        expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
        expect(answer.json().retryAfterSeconds).toBeGreaterThan(500);
        expect((await requestVerification(second.app, phone)).statusCode).toBe(429);
      } finally {
        await second.close();
      }
    });
  }, 60_000);
});

describe('spent codes and limits deleted at start (and hourly)', () => {
  /** Moves a phone's window, lock and codes `minutes` into the past, as if that much time had gone by. */
  async function agedMinutes(phone: string, minutes: number) {
    const past = sql`now() - make_interval(mins => ${minutes})`;
    await t.db.update(phoneVerificationLimits).set({ windowStartedAt: past }).where(eq(phoneVerificationLimits.phone, phone));
    await t.db
      .update(phoneVerificationLimits)
      .set({ lockedUntil: past })
      .where(and(eq(phoneVerificationLimits.phone, phone), sql`${phoneVerificationLimits.lockedUntil} is not null`));
    await t.db.update(phoneVerificationCodes).set({ expiresAt: past }).where(eq(phoneVerificationCodes.phone, phone));
  }
  const rowsOf = async (phone: string) => ({
    limits: (await t.db.select().from(phoneVerificationLimits).where(eq(phoneVerificationLimits.phone, phone))).length,
    codes: (await t.db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.phone, phone))).length,
  });

  it('deletes expired codes and limits that no longer count; keeps wrong codes counted, running windows and locks, and live codes', async () => {
    const [done, endedLock, twoWrong, locked, live] = [freshPhone(), freshPhone(), freshPhone(), freshPhone(), freshPhone()];
    for (const phone of [done, endedLock, twoWrong, locked, live]) await requestVerification(t.app, phone);
    for (let i = 0; i < 5; i += 1) await verifyPhone(t.app, endedLock, '000000');
    for (let i = 0; i < 2; i += 1) await verifyPhone(t.app, twoWrong, '000000');
    for (let i = 0; i < 5; i += 1) await verifyPhone(t.app, locked, '000000');
    for (const phone of [done, endedLock, twoWrong]) await agedMinutes(phone, 11);

    const restarted = await buildApp(t.config, t.db, { logger: false });
    await restarted.close();

    expect(await rowsOf(done)).toEqual({ limits: 0, codes: 0 });
    expect(await rowsOf(endedLock)).toEqual({ limits: 0, codes: 0 });
    expect(await rowsOf(twoWrong)).toEqual({ limits: 1, codes: 0 });
    expect(await rowsOf(locked)).toEqual({ limits: 1, codes: 1 });
    expect(await rowsOf(live)).toEqual({ limits: 1, codes: 1 });
    // Every limit answers as before: the two wrong codes still count, the lock still holds, the live code works.
    await requestVerification(t.app, twoWrong);
    expect((await verifyPhone(t.app, twoWrong, '000000')).json()).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: 2 });
    expect((await verifyPhone(t.app, locked, '000000')).statusCode).toBe(429);
    expect((await verifyPhone(t.app, live, await lastCode(t.app, live))).json()).toMatchObject({ statusCode: StatusCode.SUCCESS });
  });
});

describe('a limits row deleted between its insert and its count', () => {
  it('still texts the code and counts the wrong one (counted once more, not refused)', async () => {
    // The hourly deleteSpent running just after ensureLimits' insert: the row goes, once, right after it is made.
    let deletions = 0;
    const racing = new Proxy(t.db, {
      get(target, key, receiver) {
        if (key !== 'insert') return Reflect.get(target, key, receiver);
        return (table: typeof phoneVerificationLimits) => {
          if (table !== phoneVerificationLimits) return target.insert(table);
          return {
            values: (row: { phone: string; purpose: 'register' }) => ({
              onConflictDoNothing: async () => {
                await target.insert(phoneVerificationLimits).values(row).onConflictDoNothing();
                if (deletions === 0) return;
                deletions -= 1;
                await target.delete(phoneVerificationLimits).where(eq(phoneVerificationLimits.phone, row.phone));
              },
            }),
          };
        };
      },
    }) as Database;
    const codes = createTextedCodes(racing, t.config.ssnHashKey, createSandboxSmsGateway(t.db));
    const phone = freshPhone();

    deletions = 1;
    expect(await codes.issue(phone, 'register', 'en')).toEqual({ kind: 'sent' });
    deletions = 1;
    expect(await codes.check(phone, 'register', wrongCodeFor(await lastCode(t.app, phone)))).toEqual({ kind: 'wrong', attemptsLeft: 4 });
    expect(await codes.check(phone, 'register', await lastCode(t.app, phone))).toEqual({ kind: 'right' });
  });
});

describe('GET /sandbox/outbox', () => {
  it('lists texts newest first, for one phone or all', async () => {
    const phone = freshPhone();
    await requestVerification(t.app, phone);
    await requestVerification(t.app, phone);
    const messages = await outbox(t.app, phone);
    expect(messages).toHaveLength(2);
    expect(Date.parse(messages[0]!.sentAt)).toBeGreaterThanOrEqual(Date.parse(messages[1]!.sentAt));
    const [newest] = await t.db.select().from(sandboxSmsOutbox).where(eq(sandboxSmsOutbox.phone, phone)).orderBy(sandboxSmsOutbox.sentAt);
    expect(messages.map((message) => message.code)).toContain(newest!.code);

    const all = await t.app.inject({ method: 'GET', url: '/sandbox/outbox' });
    expect(all.json().messages.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a query it does not know, naming it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/sandbox/outbox?phone=5592014477&code=1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS, unexpected: ['code'] });
  });
});

describe('POST /verify/email', () => {
  it.each([demoCardholder.email, 'DEMO@Providers.test', ` ${demoCardholder.email} `])('answers SUCCESS for %j', async (email) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/verify/email', payload: { email } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });

  it('answers NOT_ALLOWED (404) for an email without an account', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/verify/email', payload: { email: 'nobody@example.com' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it('answers FAILED_VALIDATION for a malformed email, INVALID_PARAMETERS for a malformed body', async () => {
    const invalid = await t.app.inject({ method: 'POST', url: '/api/v1/verify/email', payload: { email: 'demo@' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { email: M.emailInvalid } });
    const malformed = await t.app.inject({ method: 'POST', url: '/api/v1/verify/email', payload: { email: demoCardholder.email, x: 1 } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });
});

describe('POST /phone-number-in-use', () => {
  it.each(['5592014477', '(559) 201-4477', '559-201-4477'])('knows the demo phone as %j', async (phone) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/phone-number-in-use', payload: { phone } });
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS, inUse: true });
  });

  it('answers inUse false for a phone nobody has', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/phone-number-in-use', payload: { phone: freshPhone() } });
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS, inUse: false });
  });

  it('answers inUse true once a registration has taken the phone', async () => {
    const applicant = newApplicant();
    await requestVerification(t.app, applicant.phone);
    const verified = await verifyPhone(t.app, applicant.phone, await lastCode(t.app, applicant.phone));
    expect((await register(t.app, { ...applicant, mfaToken: verified.json().mfaToken })).status).toBe(200);

    const response = await t.app.inject({ method: 'POST', url: '/api/v1/phone-number-in-use', payload: { phone: applicant.phone } });
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS, inUse: true });
  });

  it('answers FAILED_VALIDATION for a phone that breaks the rules', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/phone-number-in-use', payload: { phone: '1592014477' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: M.phoneInvalid } });
  });
});
