/**
 * Resetting the unlock code with the refresh token (spec §7): the SSN → a single-use ssnToken bound to
 * the user → /reset-unlock-code sets the new code, ends the lockout and rotates the refresh token; the
 * same reset sent again after its answer was lost is answered as the first, storing nothing again.
 */
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ResetUnlockCodeAnswer } from '../../../contract/session/types.ts';
import type { VerifySsnAnswer } from '../../../contract/identity/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { refreshTokens, ssnTokens, users } from '../../../server/db/schema/index.ts';
import { refreshGraceSeconds } from '../../../server/sessions.ts';
import {
  clearAttemptLimits,
  demoCardholder,
  demoUser,
  endLockouts,
  mfaCardholder,
  outbox,
  post,
  signIn,
  startTestApp,
  type TestApp,
  unlock,
  unlockFailures,
} from '../helpers.ts';

let t: TestApp;
let session: { access: string; refresh: string };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAttemptLimits(t.db);
  await t.db.update(users).set({ unlockFailures: 0 });
  session = await signIn(t.app);
});

const verifySsn = (ssn: string, refresh = session.refresh) =>
  post<VerifySsnAnswer>(t.app, '/verify/ssn/logged-in-refresh-token', { ssn }, refresh);
const resetCode = (ssnToken: string, unlockCode: string, refresh = session.refresh) =>
  post<ResetUnlockCodeAnswer>(t.app, '/reset-unlock-code', { ssnToken, unlockCode }, refresh);

const device = 'c5e3d4f6-7a81-4c3d-8e4f-5a6b7c8d9e0f';
/** The reset as the app sends it: with its device, so a spent refresh token sent again gets its successor. */
async function resetFrom(ssnToken: string, unlockCode: string, refresh = session.refresh) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/reset-unlock-code',
    headers: { authorization: `Bearer ${refresh}`, 'device-uuid': device },
    payload: { ssnToken, unlockCode },
  });
  await t.app.afterAnswer.settled();
  return { status: response.statusCode, body: response.json<ResetUnlockCodeAnswer>() };
}

const unlockCodeNotices = async () => (await outbox(t.app, demoCardholder.phone)).filter((m) => m.text.startsWith('Your Providers unlock code was changed.')).length;
const storedUnlockCodeHash = async () => (await demoUser(t.db)).unlockCodeHash;

async function lockOut() {
  for (let i = 0; i < 5; i += 1) await unlock(t.app, session.refresh, '1111');
  session = await signIn(t.app);
}

describe('POST /verify/ssn/logged-in-refresh-token', () => {
  it('answers 200 {0, ssnToken} for the right SSN, with or without dashes', async () => {
    for (const ssn of [demoCardholder.ssn, demoCardholder.ssn.replace(/-/g, '')]) {
      const answer = await verifySsn(ssn);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ statusCode: StatusCode.SUCCESS, ssnToken: expect.stringMatching(/^[\w-]{40,}$/) });
    }
  });

  it('stores the ssnToken hashed, bound to the user, for 10 minutes', async () => {
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    const rows = await t.db.select().from(ssnTokens);
    expect(JSON.stringify(rows)).not.toContain(ssnToken);
    const row = rows.at(-1)!;
    expect(row.userId).toBe((await demoUser(t.db)).id);
    expect(row.purpose).toBe('reset-unlock-code');
    const minutes = (row.expiresAt.getTime() - row.createdAt.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(10, 1);
  });

  it('answers a wrong SSN 401 {4, attemptsLeft} counting down; the fifth also ends every session, and the SSN then waits 10 minutes (429 {201}), right SSN included', async () => {
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await verifySsn(mfaCardholder.ssn));

    expect(answers.slice(0, 4).map((a) => [a.status, a.body])).toEqual(
      [4, 3, 2, 1].map((attemptsLeft) => [401, { statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft }]),
    );
    // Five wrong answers of the session's holder: the unlock lockout's limit (server/unlockCodes.ts).
    expect([answers[4]!.status, answers[4]!.body]).toEqual([401, { statusCode: StatusCode.SIGN_IN_REQUIRED }]);
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(5);
    expect((await verifySsn(demoCardholder.ssn)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });

    // Signed in again with the password, the way out is the SSN, once its wait is over.
    session = await signIn(t.app);
    const waiting = await verifySsn(demoCardholder.ssn);
    expect(waiting.status).toBe(429);
    expect(waiting.headers['retry-after']).toBeDefined();
    expect(waiting.body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
    expect(waiting.body.retryAfterSeconds).toBeGreaterThan(590);
    await endLockouts(t.db, 'ssn');
    expect((await verifySsn(demoCardholder.ssn)).status).toBe(200);
  });

  it('counts wrong SSNs and wrong unlock codes together: a session that does not know its code cannot guess the SSN instead', async () => {
    for (const attemptsLeft of [4, 3, 2]) expect((await unlock(t.app, session.refresh, '1111')).body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft });
    // The SSN's own limit has 4 tries left, the session's 1: the answer says 1, the try that is really left.
    expect((await verifySsn(mfaCardholder.ssn)).body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft: 1 });
    expect((await verifySsn(mfaCardholder.ssn)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });

    // Every session ended, the right unlock code included; a password sign-in must reset the code.
    expect((await unlock(t.app, session.refresh)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(5);
  });

  it('does not count a wrong SSN during an unlock lockout, where the SSN is the way out', async () => {
    await lockOut();
    expect((await verifySsn(mfaCardholder.ssn)).body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, attemptsLeft: 4 });
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    expect((await resetCode(ssnToken!, '8642')).status).toBe(200);
  });

  it('answers 400 {4, fieldErrors: {ssn}} for an SSN that breaks the rules, without counting it', async () => {
    const answer = await verifySsn('123-45');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { ssn: expect.any(String) } });
    expect((await verifySsn(mfaCardholder.ssn)).body).toMatchObject({ attemptsLeft: 4 });
  });

  it('answers 401 {104} without a refresh token, with an access token, or with a revoked one', async () => {
    expect((await post(t.app, '/verify/ssn/logged-in-refresh-token', { ssn: demoCardholder.ssn })).body).toEqual({ statusCode: 104 });
    expect((await verifySsn(demoCardholder.ssn, session.access)).body).toEqual({ statusCode: 104 });
    await post(t.app, '/sign-out', {}, session.refresh);
    expect((await verifySsn(demoCardholder.ssn)).body).toEqual({ statusCode: 104 });
  });
});

describe('POST /reset-unlock-code', () => {
  it('sets the new code, ends the lockout and rotates the refresh token: 200 {0, access, refresh, isInternal}', async () => {
    await lockOut();
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;

    const answer = await resetCode(ssnToken!, '8642');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ statusCode: StatusCode.SUCCESS, access: expect.any(String), refresh: expect.any(String), isInternal: false });
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(0);
    // The owner is told, by text and email.
    expect((await outbox(t.app, demoCardholder.phone))[0]?.text).toMatch(/^Your Providers unlock code was changed\./);
    const emails = (await t.app.inject({ method: 'GET', url: `/sandbox/email-outbox?email=${demoCardholder.email}` })).json<{ emails: { subject: string }[] }>();
    expect(emails.emails[0]?.subject).toContain('unlock code was changed');

    // The old refresh token is spent; the new one unlocks with the new code, not the old one.
    expect((await unlock(t.app, answer.body.refresh!, demoCardholder.unlockCode)).body.statusCode).toBe(StatusCode.INVALID_REFRESH_CREDENTIALS);
    const unlocked = await unlock(t.app, answer.body.refresh!, '8642');
    expect(unlocked.status).toBe(200);
    await restoreDemoUnlockCode();
  });

  it("forgets the last change made in Manage account: sent again after a reset, it is checked as any change is", async () => {
    const { access } = session;
    const change = { currentUnlockCode: demoCardholder.unlockCode, unlockCode: '5913' };
    expect((await post(t.app, '/set-unlock-code', change, access)).body).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await post(t.app, '/set-unlock-code', change, access)).body).toEqual({ statusCode: StatusCode.SUCCESS });
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    const reset = await resetCode(ssnToken!, '8642');
    expect(reset.status).toBe(200);
    // The code is 8642 now, not 5913: the change is not answered as done.
    expect((await post(t.app, '/set-unlock-code', change, reset.body.access!)).body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 4 });
    await restoreDemoUnlockCode();
  });

  it('spends the ssnToken once', async () => {
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    const first = await resetCode(ssnToken!, '2580');
    expect(first.status).toBe(200);

    const second = await resetCode(ssnToken!, '2580', first.body.refresh);
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { ssnToken: 'ssnToken.unverified' } });
  });

  it('answers the same reset sent again, its answer lost, as the first: the same new refresh token, nothing stored or told again', async () => {
    await lockOut();
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    const notices = await unlockCodeNotices();

    const first = await resetFrom(ssnToken!, '8642');
    expect(first.status).toBe(200);
    const stored = await storedUnlockCodeHash();
    // Sent again after the error modal: past the two tabs' grace, within the lost answer's.
    await t.db.update(refreshTokens).set({ usedAt: new Date(Date.now() - (refreshGraceSeconds + 60) * 1000) }).where(isNotNull(refreshTokens.usedAt));
    const again = await resetFrom(ssnToken!, '8642');

    expect(again.status).toBe(200);
    expect(again.body).toEqual({ statusCode: StatusCode.SUCCESS, access: expect.any(String), refresh: first.body.refresh, isInternal: false });
    expect(again.body.access).not.toBe(first.body.access);
    expect(await storedUnlockCodeHash()).toBe(stored);
    expect(await unlockCodeNotices()).toBe(notices + 1);
    // The code kept is a keyed hash, not the code.
    const [row] = await t.db.select({ reset: ssnTokens.unlockCodeReset }).from(ssnTokens).where(isNotNull(ssnTokens.usedAt));
    expect(row?.reset).toMatch(/^[\w-]{43}$/);
    // The new code unlocks the session the answer gave.
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(0);
    expect((await unlock(t.app, again.body.refresh!, '8642')).status).toBe(200);
    await restoreDemoUnlockCode();
  });

  it('still refuses the spent ssnToken with another code, or once it expired, and changes nothing', async () => {
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    const first = await resetFrom(ssnToken!, '8642');
    expect(first.status).toBe(200);
    const stored = await storedUnlockCodeHash();

    const other = await resetFrom(ssnToken!, '2580');
    expect([other.status, other.body]).toEqual([400, { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { ssnToken: 'ssnToken.unverified' } }]);
    await t.db.update(ssnTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await resetFrom(ssnToken!, '8642')).body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { ssnToken: 'ssnToken.unverified' } });

    expect(await storedUnlockCodeHash()).toBe(stored);
    expect((await unlock(t.app, first.body.refresh!, '8642')).status).toBe(200);
    await restoreDemoUnlockCode();
  });

  it('refuses an ssnToken of another user, an expired one, and a made-up one', async () => {
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    const jordan = await post<{ statusCode: number }>(t.app, '/sign-in', { email: mfaCardholder.email, password: mfaCardholder.password });
    expect(jordan.body.statusCode).toBe(StatusCode.MFA_REQUIRED); // no session without the code: use the row instead
    const [other] = await t.db.select().from(users).where(eq(users.email, mfaCardholder.email));
    await t.db.update(ssnTokens).set({ userId: other!.id });
    expect((await resetCode(ssnToken!, '2580')).status).toBe(400);

    const fresh = (await verifySsn(demoCardholder.ssn)).body.ssnToken!;
    await t.db.update(ssnTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await resetCode(fresh, '2580')).body).toMatchObject({ fieldErrors: { ssnToken: 'ssnToken.unverified' } });
    expect((await resetCode('made-up-token', '2580')).status).toBe(400);
  });

  it('checks the new code with the unlock-code rules: 400 {4, fieldErrors: {unlockCode}}, ssnToken kept', async () => {
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    for (const unlockCode of ['1234', '1111', '12a4', '123']) {
      const answer = await resetCode(ssnToken!, unlockCode);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { unlockCode: expect.any(String) } });
    }
    expect((await resetCode(ssnToken!, '2580')).status).toBe(200);
  });

  it('answers 401 {104} for a refresh token of a revoked family or an expired one', async () => {
    const { ssnToken } = (await verifySsn(demoCardholder.ssn)).body;
    await post(t.app, '/sign-out', {}, session.refresh);
    expect((await resetCode(ssnToken!, '2580')).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });

    session = await signIn(t.app);
    const next = (await verifySsn(demoCardholder.ssn)).body.ssnToken!;
    await t.db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await resetCode(next, '2580')).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('answers 400 {2} for a malformed body', async () => {
    expect((await post(t.app, '/reset-unlock-code', { unlockCode: '2580' }, session.refresh)).body).toEqual({ statusCode: 2 });
    expect((await post(t.app, '/reset-unlock-code', { ssnToken: 'x', unlockCode: '2580', extra: 1 }, session.refresh)).body).toEqual({
      statusCode: 2,
    });
  });
});

/** Puts the demo unlock code back for the next tests, through the API once more. */
async function restoreDemoUnlockCode() {
  const fresh = await signIn(t.app);
  const { ssnToken } = (await verifySsn(demoCardholder.ssn, fresh.refresh)).body;
  expect((await resetCode(ssnToken!, demoCardholder.unlockCode, fresh.refresh)).status).toBe(200);
}
