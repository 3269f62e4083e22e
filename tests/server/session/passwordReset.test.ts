/**
 * Resetting a forgotten password (spec §7): /verify/ssn {email, ssn} → ssnToken; /change-password
 * {email, ssn, password} checks the new password and the SSN again, stores the new scrypt hash, ends
 * every session and clears the sign-in count. Wrong SSNs and unknown emails are answered alike, under
 * a per-account limit.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VerifySsnAnswer } from '../../../contract/identity/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { attemptLimits, users } from '../../../server/db/schema/index.ts';
import { hashSecret } from '../../../server/secrets.ts';
import {
  clearAttemptLimits,
  demoCardholder,
  demoUser,
  endLockouts,
  homeStatus,
  mfaCardholder,
  post,
  signIn,
  signInWith,
  startTestApp,
  type TestApp,
  unlock,
} from '../helpers.ts';

let t: TestApp;
const newPassword = 'Sunflower-2027';

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAttemptLimits(t.db);
  await t.db.update(users).set({ passwordHash: await hashSecret(demoCardholder.password) }).where(eq(users.email, demoCardholder.email));
});

const verifySsn = (email: string, ssn: string) => post<VerifySsnAnswer>(t.app, '/verify/ssn', { email, ssn });
const changePassword = (body: object) => post(t.app, '/change-password', body);

describe('POST /verify/ssn', () => {
  it('answers 200 {0, ssnToken} when the SSN matches the account (email in any case, SSN with or without dashes)', async () => {
    for (const [email, ssn] of [
      [demoCardholder.email, demoCardholder.ssn],
      [demoCardholder.email.toUpperCase(), demoCardholder.ssn.replace(/-/g, '')],
    ]) {
      const answer = await verifySsn(email!, ssn!);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ statusCode: StatusCode.SUCCESS, ssnToken: expect.any(String) });
    }
  });

  it('answers another account’s SSN 401 {4, attemptsLeft}', async () => {
    const answer = await verifySsn(demoCardholder.email, mfaCardholder.ssn);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft: 4 });
  });

  it('answers an unknown email exactly like a wrong SSN, lockout included', async () => {
    const unknown = [];
    const known = [];
    for (let i = 0; i < 5; i += 1) unknown.push(await verifySsn('nobody@providers.test', demoCardholder.ssn));
    for (let i = 0; i < 5; i += 1) known.push(await verifySsn(demoCardholder.email, mfaCardholder.ssn));

    expect(unknown.map((a) => a.status)).toEqual([401, 401, 401, 401, 429]);
    expect(unknown.map((a) => [a.status, Object.keys(a.body).sort()])).toEqual(known.map((a) => [a.status, Object.keys(a.body).sort()]));
    expect(unknown.slice(0, 4).map((a) => a.body)).toEqual(known.slice(0, 4).map((a) => a.body));
  });

  it('locks the account’s SSN checks for 10 minutes after 5 wrong SSNs (429 {201, retryAfterSeconds}), right SSN included', async () => {
    for (let i = 0; i < 5; i += 1) await verifySsn(demoCardholder.email, mfaCardholder.ssn);

    const right = await verifySsn(demoCardholder.email, demoCardholder.ssn);
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(right.body.retryAfterSeconds).toBeGreaterThan(590);
    // The same limit guards /change-password.
    expect((await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: newPassword })).status).toBe(429);

    await endLockouts(t.db, 'ssn');
    expect((await verifySsn(demoCardholder.email, demoCardholder.ssn)).status).toBe(200);
  });

  it('answers 400 {4, fieldErrors} for an email or SSN breaking the rules, and 400 {2} for a malformed body', async () => {
    const answer = await verifySsn('not-an-email', '987-65-4321');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { email: expect.any(String), ssn: expect.any(String) } });
    expect((await post(t.app, '/verify/ssn', { email: demoCardholder.email })).body).toEqual({ statusCode: 2 });
    expect((await post(t.app, '/verify/ssn', { email: demoCardholder.email, ssn: 123456789 })).body).toEqual({ statusCode: 2 });
  });
});

describe('POST /change-password', () => {
  it('sets the new password: 200 {0}; the new one signs in, the old one does not', async () => {
    const answer = await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: newPassword });
    expect(answer).toMatchObject({ status: 200, body: { statusCode: StatusCode.SUCCESS } });

    expect((await signInWith(t.app, { email: demoCardholder.email, password: demoCardholder.password })).status).toBe(401);
    expect((await signInWith(t.app, { email: demoCardholder.email, password: newPassword })).status).toBe(200);
    expect((await demoUser(t.db)).passwordHash).toMatch(/^scrypt\$/);
  });

  it('ends every session of the cardholder (access and refresh tokens of every family)', async () => {
    const one = await signIn(t.app);
    const two = await signIn(t.app);
    await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: newPassword });

    for (const session of [one, two]) {
      expect((await homeStatus(t.app, session.access)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      expect((await unlock(t.app, session.refresh)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    }
  });

  it('clears the sign-in wait, so the new password works at once', async () => {
    for (let i = 0; i < 5; i += 1) await signInWith(t.app, { email: demoCardholder.email, password: 'guess-guess' });
    expect((await signInWith(t.app, { email: demoCardholder.email, password: demoCardholder.password })).status).toBe(401);

    await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: newPassword });
    expect((await signInWith(t.app, { email: demoCardholder.email, password: newPassword })).status).toBe(200);
  });

  it('checks the new password with the rules: 400 {4, fieldErrors: {password}}', async () => {
    for (const password of ['short1', 'has space 123', '']) {
      const answer = await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { password: expect.any(String) } });
    }
    expect((await signInWith(t.app, { email: demoCardholder.email, password: demoCardholder.password })).status).toBe(200);
  });

  it('refuses a wrong SSN or an unknown email with 401 {4, attemptsLeft}, changing nothing', async () => {
    const wrong = await changePassword({ email: demoCardholder.email, ssn: mfaCardholder.ssn, password: newPassword });
    expect(wrong).toMatchObject({ status: 401, body: { statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft: 4 } });
    const unknown = await changePassword({ email: 'nobody@providers.test', ssn: demoCardholder.ssn, password: newPassword });
    expect(unknown).toMatchObject({ status: 401, body: { statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft: 4 } });

    expect((await signInWith(t.app, { email: demoCardholder.email, password: demoCardholder.password })).status).toBe(200);
    expect((await t.db.select().from(attemptLimits)).length).toBe(2);
  });
});

describe('a new password known from breaches (NIST SP 800-63B §3.1.1.2)', () => {
  it.each(['password', 'Password1', 'qwertyuiop', 'iloveyou', '12345678'])('refuses %j with 400 {4, fieldErrors: {password: "password.common"}}, changing nothing', async (common) => {
    const answer = await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: common });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { password: 'password.common' } });
    expect((await signInWith(t.app, { email: demoCardholder.email, password: demoCardholder.password })).status).toBe(200);
  });

  it('spends none of the SSN attempts on a refused password', async () => {
    await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: 'password' });
    const wrongSsn = await changePassword({ email: demoCardholder.email, ssn: mfaCardholder.ssn, password: 'password' });
    expect(wrongSsn.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { password: 'password.common' } });
    expect((await t.db.select().from(attemptLimits)).filter((row) => row.scope === 'ssn')).toEqual([]);
  });

  it('accepts an uncommon one', async () => {
    const answer = await changePassword({ email: demoCardholder.email, ssn: demoCardholder.ssn, password: 'Tortilla-Verde-2026' });
    expect(answer.status).toBe(200);
  });
});
