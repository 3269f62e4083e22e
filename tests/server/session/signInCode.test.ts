/**
 * Sign-in with a texted code (spec §8 MFA_REQUIRED) for the second sandbox cardholder: the right
 * password texts a code through the same SMS gateway and outbox as registration, under its own per-phone
 * limits; the same call with the code finishes the sign-in.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { attemptLimits, phoneVerificationCodes, phoneVerificationLimits, users } from '../../../server/db/schema/index.ts';
import { signInPerAccountPolicy } from '../../../server/attemptLimits.ts';
import {
  clearAttemptLimits,
  getHome,
  lastCode,
  mfaCardholder,
  outbox,
  post,
  requestVerification,
  signInWith,
  startTestApp,
  type TestApp,
  verifyPhone,
} from '../helpers.ts';

let t: TestApp;
const credentials = { email: mfaCardholder.email, password: mfaCardholder.password };
const masked = '(XXX) XXX-7788';
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAttemptLimits(t.db);
  await t.db.delete(phoneVerificationLimits);
  await t.db.update(users).set({ phone: mfaCardholder.phone }).where(eq(users.email, mfaCardholder.email));
});

describe('POST /sign-in for a cardholder who needs a texted code', () => {
  it('answers 401 {105, phone masked} for the right password and texts a 6-digit code to the phone on file', async () => {
    const answer = await signInWith(t.app, credentials);

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: StatusCode.MFA_REQUIRED, phone: masked });
    const [message] = await outbox(t.app, mfaCardholder.phone);
    expect(message!.code).toMatch(/^\d{6}$/);
    expect(message!.text).toContain(message!.code);
    expect(message!.text.split('\n')).toEqual([
      `Your Providers sign-in code is ${message!.code}. It expires in 10 minutes. Never share it.`,
      `Su código para iniciar sesión en Providers es ${message!.code}. Vence en 10 minutos. No lo comparta con nadie.`,
    ]);
  });

  it('signs in with the code: 200 {0, access, refresh, isInternal, mustResetUnlockCode} and the session opens home', async () => {
    await signInWith(t.app, credentials);
    const answer = await signInWith(t.app, { ...credentials, code: await lastCode(t.app, mfaCardholder.phone) });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      statusCode: StatusCode.SUCCESS,
      access: expect.any(String),
      refresh: expect.any(String),
      isInternal: false,
      mustResetUnlockCode: false,
    });
    const home = await getHome(t.app, answer.body.access);
    expect(home.statusCode).toBe(200);
    expect(home.json().virtualCard).toBeTruthy();
  });

  it('spends the code once', async () => {
    await signInWith(t.app, credentials);
    const code = await lastCode(t.app, mfaCardholder.phone);
    expect((await signInWith(t.app, { ...credentials, code })).status).toBe(200);

    const again = await signInWith(t.app, { ...credentials, code });
    expect(again.status).toBe(401);
    expect(again.body.statusCode).toBe(StatusCode.INVALID_MFA_CODE);
  });

  it('does not text a code, nor look at one, for a wrong password', async () => {
    const before = (await outbox(t.app, mfaCardholder.phone)).length;
    const answer = await signInWith(t.app, { ...credentials, password: 'Wrong-password1' });
    expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS });
    expect((await outbox(t.app, mfaCardholder.phone)).length).toBe(before);

    await signInWith(t.app, credentials);
    const code = await lastCode(t.app, mfaCardholder.phone);
    const withCode = await signInWith(t.app, { ...credentials, password: 'Wrong-password1', code });
    expect(withCode.body).toEqual({ statusCode: StatusCode.INVALID_CREDENTIALS });
    expect((await signInWith(t.app, { ...credentials, code })).status).toBe(200);
  });

  it('answers a wrong code 401 {200, attemptsLeft} counting down, then 429 {201, retryAfterSeconds}; the right code is refused during the wait', async () => {
    await signInWith(t.app, credentials);
    const code = await lastCode(t.app, mfaCardholder.phone);
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await signInWith(t.app, { ...credentials, code: otherCode(code) }));

    expect(answers.slice(0, 4).map((a) => [a.status, a.body])).toEqual(
      [4, 3, 2, 1].map((attemptsLeft) => [401, { statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft }]),
    );
    expect(answers[4]!.status).toBe(429);
    expect(answers[4]!.body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(answers[4]!.body.retryAfterSeconds).toBeGreaterThan(590);

    const right = await signInWith(t.app, { ...credentials, code });
    expect(right.status).toBe(429);
    expect(right.body.statusCode).toBe(StatusCode.INVALID_MFA_LIMIT);
    // No new code is texted during the wait either.
    expect((await signInWith(t.app, credentials)).status).toBe(429);
  });

  // NIST SP 800-63B §5.2.2: failures in a row on one account are limited, codes as well as passwords;
  // the phone's own wait alone let a guesser who knows the password try 720 codes a day.
  it("counts wrong codes toward the account's ceiling of failures in a row: at the 100th the account waits, the right code included", async () => {
    await t.db.insert(attemptLimits).values({ scope: signInPerAccountPolicy.scope, subject: mfaCardholder.email, failures: signInPerAccountPolicy.limit - 2 });
    await signInWith(t.app, credentials);
    const code = await lastCode(t.app, mfaCardholder.phone);
    expect((await signInWith(t.app, { ...credentials, code: otherCode(code) })).body).toEqual({ statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: 4 });

    const last = await signInWith(t.app, { ...credentials, code: otherCode(code) });
    expect(last.status).toBe(429);
    expect(last.body.retryAfterSeconds).toBeGreaterThan(890);
    const right = await signInWith(t.app, { ...credentials, code });
    expect(right.status).toBe(401);
    expect(right.body.retryAfterSeconds).toBeGreaterThan(890);
  });

  it("ends the account's count with the right code", async () => {
    await t.db.insert(attemptLimits).values({ scope: signInPerAccountPolicy.scope, subject: mfaCardholder.email, failures: signInPerAccountPolicy.limit - 3 });
    await signInWith(t.app, credentials);
    const code = await lastCode(t.app, mfaCardholder.phone);
    await signInWith(t.app, { ...credentials, code: otherCode(code) });
    expect((await signInWith(t.app, { ...credentials, code })).status).toBe(200);
    const [row] = await t.db.select().from(attemptLimits).where(eq(attemptLimits.subject, mfaCardholder.email));
    expect(row!.failures).toBe(0);
  });

  it('keeps its own limit of 5 texts per 10 minutes: the sixth waits', async () => {
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push(await signInWith(t.app, credentials));

    expect(answers.map((a) => a.body.statusCode)).toEqual([...Array<number>(5).fill(StatusCode.MFA_REQUIRED), StatusCode.INVALID_MFA_LIMIT]);
    expect(answers[5]!.status).toBe(429);
  });

  it('is not locked by a stranger spending the phone’s registration and password reset codes, texts and wrong guesses', async () => {
    // Anyone may ask registration codes for any phone, and reset codes for any email.
    for (let i = 0; i < 5; i += 1) await requestVerification(t.app, mfaCardholder.phone);
    expect((await requestVerification(t.app, mfaCardholder.phone)).statusCode).toBe(429);
    for (let i = 0; i < 5; i += 1) await verifyPhone(t.app, mfaCardholder.phone, '000000');
    expect((await verifyPhone(t.app, mfaCardholder.phone, '000000')).statusCode).toBe(429);
    for (let i = 0; i < 5; i += 1) await post(t.app, '/reset-password', { email: mfaCardholder.email });
    for (let i = 0; i < 5; i += 1) await post(t.app, '/verify/reset-code', { email: mfaCardholder.email, code: '000000' });
    expect((await post(t.app, '/verify/reset-code', { email: mfaCardholder.email, code: '000000' })).status).toBe(429);

    expect(await signInWith(t.app, credentials)).toEqual({ status: 401, body: { statusCode: StatusCode.MFA_REQUIRED, phone: masked } });
    const signedIn = await signInWith(t.app, { ...credentials, code: await lastCode(t.app, mfaCardholder.phone) });
    expect(signedIn.status).toBe(200);
  });

  it('never takes a registration code for a sign-in code', async () => {
    await signInWith(t.app, credentials);
    await requestVerification(t.app, mfaCardholder.phone);
    const registrationCode = await lastCode(t.app, mfaCardholder.phone);

    const answer = await signInWith(t.app, { ...credentials, code: registrationCode });
    expect(answer.status).toBe(401);
    expect(answer.body.statusCode).toBe(StatusCode.INVALID_MFA_CODE);
  });

  it('stores only a keyed hash of the code', async () => {
    await signInWith(t.app, credentials);
    const code = await lastCode(t.app, mfaCardholder.phone);
    const rows = await t.db.select().from(phoneVerificationCodes).where(eq(phoneVerificationCodes.phone, mfaCardholder.phone));
    expect(rows.some((row) => row.purpose === 'sign-in')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('answers {204, phone} for a landline on file and {203, phone} when the text cannot be sent', async () => {
    await t.db.update(users).set({ phone: '5592010204' }).where(eq(users.email, mfaCardholder.email));
    expect(await signInWith(t.app, credentials)).toEqual({ status: 401, body: { statusCode: StatusCode.INVALID_PHONE_LANDLINE, phone: '(XXX) XXX-0204' } });

    await t.db.update(users).set({ phone: '5592010203' }).where(eq(users.email, mfaCardholder.email));
    expect(await signInWith(t.app, credentials)).toEqual({
      status: 401,
      body: { statusCode: StatusCode.MFA_ERROR, phone: '(XXX) XXX-0203' },
    });
  });

  it('answers {202, phone} for a phone on file that is not a valid US number', async () => {
    await t.db.update(users).set({ phone: '1592017788' }).where(eq(users.email, mfaCardholder.email));
    expect(await signInWith(t.app, credentials)).toEqual({ status: 401, body: { statusCode: StatusCode.INVALID_PHONE_NUMBER, phone: masked } });
  });

  it('texts the code to a phone on file taken before the rule on area codes of no place (800): the cardholder is not locked out', async () => {
    await t.db.update(users).set({ phone: '8002017788' }).where(eq(users.email, mfaCardholder.email));
    expect(await signInWith(t.app, credentials)).toEqual({ status: 401, body: { statusCode: StatusCode.MFA_REQUIRED, phone: masked } });
    expect(await lastCode(t.app, '8002017788')).toMatch(/^\d{6}$/);
  });

  it('rejects a code that is not 6 digits as a bad request', async () => {
    for (const code of ['12345', '1234567', 'abcdef', 123456]) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: { ...credentials, code } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
  });

  it('ignores a code for a cardholder who does not need one (the demo cardholder)', async () => {
    const answer = await signInWith(t.app, { email: 'demo@providers.test', password: 'Providers2026', code: '123456' });
    expect(answer.status).toBe(200);
  });
});
