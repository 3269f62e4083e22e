/**
 * POST /set-unlock-code {currentUnlockCode, unlockCode} with the access token (Manage account): the
 * new code is what /refresh-tokens accepts afterwards, the old one no longer; the session goes on.
 * The current code is checked as /refresh-tokens checks it: a wrong one is refused with the attempts
 * left, saves nothing and counts against the same wrong-unlock-code limit, whose last attempt ends
 * every session. Guarded like every account call (none, spent or revoked → 104, expired → 103);
 * bodies answer like the other calls (malformed 400 {2}, broken rule 400 {4, fieldErrors}); no code
 * reaches the logs. Runs on a cardholder of its own, opened through /register, so no seeded account
 * changes.
 */
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationMessage as M } from '../../../contract/rules.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { users } from '../../../server/db/schema/index.ts';
import { createSessions } from '../../../server/sessions.ts';
import { bearer, capturedLog, homeStatus, outbox, post, register, startTestApp, type TestApp, unlock, unlockFailures, verifiedApplicant } from '../helpers.ts';

const { lines: logLines, stream: logStream } = capturedLog();

let t: TestApp;
let userId: string;
/** The cardholder's code right now (registration chose '2468'); tests that change it update it. */
let currentCode = '';

/** A new session of the test cardholder: access and refresh of a fresh unlock with the current code. */
let session = { access: '', refresh: '' };

beforeAll(async () => {
  t = await startTestApp({ env: { LOG_LEVEL: 'trace' }, logStream });
  const applicant = await verifiedApplicant(t.app, { firstName: 'Casey', lastName: 'Codechanger' });
  const registered = await register(t.app, applicant);
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  session = { access: registered.body.access!, refresh: registered.body.refresh! };
  currentCode = applicant.unlockCode;
  userId = String(decodeJwt(session.access).sub);
});
afterAll(async () => {
  await t?.close();
});

const setUnlockCode = (payload: unknown, token: string | null = session.access, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/set-unlock-code',
    headers: { 'content-type': contentType, ...(token ? bearer(token) : {}) },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

/** The body with the cardholder's current code, as Manage account sends it. */
const withCurrent = (unlockCode: unknown) => ({ currentUnlockCode: currentCode, unlockCode });

const storedHash = async () => (await t.db.select({ hash: users.unlockCodeHash }).from(users).where(eq(users.id, userId)))[0]!.hash;

function expectPlainAnswer(response: LightMyRequestResponse, status: number, body: Record<string, unknown>) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual(body);
  expect(response.body).not.toMatch(/stack/i);
  expect(response.body).not.toMatch(/\/(work|home|usr|tmp|node_modules|server)\/|\.ts\b|\.js\b/);
}

describe('POST /set-unlock-code with the access token', () => {
  it('stores the new code: /refresh-tokens then unlocks with it and not with the old one, and the session goes on', async () => {
    // A wrong code first: a new code starts the count of wrong codes again.
    expect((await unlock(t.app, session.refresh, '9075')).body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 4 });
    const before = await storedHash();

    const response = await setUnlockCode(withCurrent('3971'));

    expectPlainAnswer(response, 200, { statusCode: StatusCode.SUCCESS });
    const after = await storedHash();
    expect(after).toMatch(/^scrypt\$/);
    expect(after).not.toBe(before);
    expect(after).not.toContain('3971');
    expect(await unlockFailures(t.db, userId)).toBe(0);
    // The unlock code is the cardholder's, not the session's: the same tokens still work.
    expect((await homeStatus(t.app, session.access)).status).toBe(200);

    const old = await unlock(t.app, session.refresh, currentCode);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 4 });
    const unlocked = await unlock(t.app, session.refresh, '3971');
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.statusCode).toBe(StatusCode.SUCCESS);
    currentCode = '3971';
    session = { access: unlocked.body.access!, refresh: unlocked.body.refresh! };
  });

  it('can change the code again with the same session', async () => {
    expectPlainAnswer(await setUnlockCode(withCurrent('6203')), 200, { statusCode: StatusCode.SUCCESS });
    const unlocked = await unlock(t.app, session.refresh, '6203');
    expect(unlocked.body.statusCode).toBe(StatusCode.SUCCESS);
    currentCode = '6203';
    session = { access: unlocked.body.access!, refresh: unlocked.body.refresh! };
  });

  it.each([
    ['1111', M.unlockCodeObvious],
    ['0000', M.unlockCodeObvious],
    ['1234', M.unlockCodeObvious],
    ['4321', M.unlockCodeObvious],
    ['6789', M.unlockCodeObvious],
    ['123', M.unlockCodeInvalid],
    ['12345', M.unlockCodeInvalid],
    ['12a4', M.unlockCodeInvalid],
    ['1'.repeat(10_000), M.unlockCodeInvalid],
    ['', M.unlockCodeRequired],
  ])('refuses %j with FAILED_VALIDATION on the field, as /reset-unlock-code does, and keeps the code', async (unlockCode, message) => {
    const before = await storedHash();
    const response = await setUnlockCode(withCurrent(unlockCode));
    expectPlainAnswer(response, 400, { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { unlockCode: message } });
    expect(await storedHash()).toBe(before);
  });

  it('refuses the current code as the new one with FAILED_VALIDATION on the field (nothing would change), counting no attempt', async () => {
    const before = await storedHash();
    const response = await setUnlockCode(withCurrent(currentCode));
    expectPlainAnswer(response, 400, { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { unlockCode: M.unlockCodeUnchanged } });
    expect(await storedHash()).toBe(before);
    expect(await unlockFailures(t.db, userId)).toBe(0);
  });

  it.each([
    ['12', M.unlockCodeInvalid],
    ['12345', M.unlockCodeInvalid],
    ['12a4', M.unlockCodeInvalid],
    ['1'.repeat(10_000), M.unlockCodeInvalid],
    ['', M.unlockCodeRequired],
  ])('refuses a current code %j that breaks the unlock rule with FAILED_VALIDATION on its field, counting no attempt', async (currentUnlockCode, message) => {
    const before = await storedHash();
    const response = await setUnlockCode({ currentUnlockCode, unlockCode: '3971' });
    expectPlainAnswer(response, 400, { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { currentUnlockCode: message } });
    expect(await storedHash()).toBe(before);
    expect(await unlockFailures(t.db, userId)).toBe(0);
  });

  it.each([
    ['no body', () => ''],
    ['an empty object', () => ({})],
    ['no current code (the request of before)', () => ({ unlockCode: '3971' })],
    ['no new code', () => ({ currentUnlockCode: currentCode })],
    ['a number as code', () => withCurrent(3971)],
    ['a number as current code', () => ({ currentUnlockCode: Number(currentCode), unlockCode: '3971' })],
    ['an array as code', () => withCurrent(['3971'])],
    ['an array as current code', () => ({ currentUnlockCode: [currentCode], unlockCode: '3971' })],
    ['null as code', () => withCurrent(null)],
    ['null as current code', () => ({ currentUnlockCode: null, unlockCode: '3971' })],
    ['an unknown extra key', () => ({ ...withCurrent('3971'), userId: 'someone-else' })],
    ['a JSON array', () => ['3971']],
    ['JSON null', () => 'null'],
    ['a body that is not JSON', () => '{"unlockCode": '],
  ])('answers INVALID_PARAMETERS for %s, without stack or paths, counting no attempt', async (_name, payload) => {
    const before = await storedHash();
    expectPlainAnswer(await setUnlockCode(payload()), 400, { statusCode: StatusCode.INVALID_PARAMETERS });
    expect(await storedHash()).toBe(before);
    expect(await unlockFailures(t.db, userId)).toBe(0);
  });

  it('answers a form-encoded body with 415 INVALID_PARAMETERS (RFC 9110 §15.5.16: a media type it does not take)', async () => {
    const response = await setUnlockCode(`currentUnlockCode=${currentCode}&unlockCode=3971`, session.access, 'application/x-www-form-urlencoded');
    expectPlainAnswer(response, 415, { statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('answers a body over 16 KB with 413 INVALID_PARAMETERS', async () => {
    const response = await setUnlockCode(withCurrent('1'.repeat(17 * 1024)));
    expectPlainAnswer(response, 413, { statusCode: StatusCode.INVALID_PARAMETERS });
  });
});

describe('POST /set-unlock-code without a usable access token', () => {
  it('answers SIGN_IN_REQUIRED without a token, before looking at the body', async () => {
    expectPlainAnswer(await setUnlockCode(withCurrent('5802'), null), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
    expectPlainAnswer(await setUnlockCode({ nonsense: 1 }, null), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('answers SIGN_IN_REQUIRED for a forged token and for the refresh token', async () => {
    expectPlainAnswer(await setUnlockCode(withCurrent('5802'), 'not-a-token'), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
    expectPlainAnswer(await setUnlockCode(withCurrent('5802'), session.refresh), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('answers REFRESH_REQUIRED for a genuine access token that has expired, and keeps the code', async () => {
    const before = await storedHash();
    const claims = decodeJwt(session.access);
    const expired = await createSessions(t.db, t.config).issueAccessToken({ userId, familyId: String(claims.sid) }, -60);

    expectPlainAnswer(await setUnlockCode(withCurrent('5802'), expired), 401, { statusCode: StatusCode.REFRESH_REQUIRED });
    expect(await storedHash()).toBe(before);
  });

  it('answers SIGN_IN_REQUIRED once the session has signed out, and keeps the code', async () => {
    const unlocked = await unlock(t.app, session.refresh, currentCode);
    const access = unlocked.body.access!;
    expect((await post(t.app, '/sign-out', {}, unlocked.body.refresh!)).body).toEqual({ statusCode: StatusCode.SUCCESS });
    const before = await storedHash();

    expectPlainAnswer(await setUnlockCode(withCurrent('5802'), access), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(await storedHash()).toBe(before);
    // A wrong current code with a dead token is not even compared: no attempt spent.
    expectPlainAnswer(await setUnlockCode({ currentUnlockCode: '9075', unlockCode: '5802' }, access), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(await unlockFailures(t.db, userId)).toBe(0);
  });
});

/**
 * Someone holding an unlocked phone does not know the code: every wrong current code is refused, saves
 * nothing, and spends one of the unlock screen's attempts. Last in the file: it ends in a lockout.
 */
describe('POST /set-unlock-code with a wrong current code', () => {
  const wrongCode = '9075';
  /** A new sign-in of the cardholder (the one before signed out). */
  const signInAgain = () => createSessions(t.db, t.config).startSession(userId);

  beforeAll(async () => {
    session = await signInAgain();
  });

  it('refuses it with 401 {101, attemptsLeft}, keeps the code, and counts it as a wrong unlock code', async () => {
    const before = await storedHash();
    const response = await setUnlockCode({ currentUnlockCode: wrongCode, unlockCode: '5802' });
    expectPlainAnswer(response, 401, { statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 4 });
    expect(await storedHash()).toBe(before);
    expect(await unlockFailures(t.db, userId)).toBe(1);
    // The new code does not unlock; the current one still does (and the session went on).
    expect((await unlock(t.app, session.refresh, '5802')).body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 3 });
    const unlocked = await unlock(t.app, session.refresh, currentCode);
    expect(unlocked.body.statusCode).toBe(StatusCode.SUCCESS);
    session = { access: unlocked.body.access!, refresh: unlocked.body.refresh! };
    expect(await unlockFailures(t.db, userId)).toBe(0);
  });

  it('shares one count with the unlock screen, in both directions', async () => {
    expect((await unlock(t.app, session.refresh, wrongCode)).body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 4 });
    expectPlainAnswer(await setUnlockCode({ currentUnlockCode: wrongCode, unlockCode: '5802' }), 401, {
      statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS,
      attemptsLeft: 3,
    });
    expect((await unlock(t.app, session.refresh, wrongCode)).body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 2 });
    expect(await unlockFailures(t.db, userId)).toBe(3);
  });

  it('with the right current code saves the new one, starts the count again and tells the owner by text and email', async () => {
    expectPlainAnswer(await setUnlockCode(withCurrent('7315')), 200, { statusCode: StatusCode.SUCCESS });
    expect(await unlockFailures(t.db, userId)).toBe(0);
    const [owner] = await t.db.select({ phone: users.phone, email: users.email }).from(users).where(eq(users.id, userId));
    const [texted] = await outbox(t.app, owner!.phone);
    expect(texted?.text).toMatch(/^Your Providers unlock code was changed\./);
    const emails = (await t.app.inject({ method: 'GET', url: `/sandbox/email-outbox?email=${owner!.email}` })).json<{ emails: { text: string }[] }>().emails;
    expect(emails[0]?.text).toBe(texted!.text);
    currentCode = '7315';
    const unlocked = await unlock(t.app, session.refresh, '7315');
    expect(unlocked.body.statusCode).toBe(StatusCode.SUCCESS);
    session = { access: unlocked.body.access!, refresh: unlocked.body.refresh! };
  });

  it('answers the same change sent again (its answer lost) as done: nothing counted, stored or told again', async () => {
    const previous = currentCode;
    const change = { currentUnlockCode: previous, unlockCode: '3582' };
    expectPlainAnswer(await setUnlockCode(change), 200, { statusCode: StatusCode.SUCCESS });
    const [owner] = await t.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
    const told = (await outbox(t.app, owner!.phone)).length;
    const stored = await storedHash();
    // The app sends what the cardholder typed again: its current code is the old one now.
    for (let again = 0; again < 6; again += 1) expectPlainAnswer(await setUnlockCode(change), 200, { statusCode: StatusCode.SUCCESS });
    expect(await unlockFailures(t.db, userId)).toBe(0);
    expect(await storedHash()).toBe(stored);
    expect(await outbox(t.app, owner!.phone)).toHaveLength(told);
    // Another new code with the old current one is another change: a wrong current code, counted.
    expectPlainAnswer(await setUnlockCode({ currentUnlockCode: previous, unlockCode: '3583' }), 401, {
      statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS,
      attemptsLeft: 4,
    });
    expect(await storedHash()).toBe(stored);
    currentCode = '3582';
    const unlocked = await unlock(t.app, session.refresh, '3582');
    expect(unlocked.body.statusCode).toBe(StatusCode.SUCCESS);
    session = { access: unlocked.body.access!, refresh: unlocked.body.refresh! };
  });

  it('the fifth wrong one ends every session of the cardholder; the code stays the old one', async () => {
    const otherDevice = await signInAgain();
    const before = await storedHash();
    for (const attemptsLeft of [4, 3, 2, 1]) {
      expectPlainAnswer(await setUnlockCode({ currentUnlockCode: wrongCode, unlockCode: '5802' }), 401, {
        statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS,
        attemptsLeft,
      });
    }
    expect((await homeStatus(t.app, session.access)).status).toBe(200);
    expect((await homeStatus(t.app, otherDevice.access)).status).toBe(200);

    expectPlainAnswer(await setUnlockCode({ currentUnlockCode: wrongCode, unlockCode: '5802' }), 401, {
      statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS,
      attemptsLeft: 0,
    });
    expect(await unlockFailures(t.db, userId)).toBe(5);
    expect(await storedHash()).toBe(before);
    // Every session has ended, other devices included, as the fifth wrong code on the unlock screen ends them.
    for (const ended of [session, otherDevice]) {
      expect((await homeStatus(t.app, ended.access)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
      expect((await unlock(t.app, ended.refresh, currentCode)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    }
    // Even the right current code changes nothing now: the token is dead, the count stays at the limit.
    expectPlainAnswer(await setUnlockCode(withCurrent('5802')), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(await storedHash()).toBe(before);
    expect(await unlockFailures(t.db, userId)).toBe(5);
  });

  it('during the lockout refuses a new sign-in as /refresh-tokens does (401 {104}), right or wrong current code, counting nothing', async () => {
    const signedIn = await signInAgain();
    const before = await storedHash();
    for (const currentUnlockCode of [currentCode, wrongCode]) {
      expectPlainAnswer(await setUnlockCode({ currentUnlockCode, unlockCode: '5802' }, signedIn.access), 401, { statusCode: StatusCode.SIGN_IN_REQUIRED });
    }
    expect((await unlock(t.app, signedIn.refresh, currentCode)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(await storedHash()).toBe(before);
    expect(await unlockFailures(t.db, userId)).toBe(5);
    // The session itself is kept (it is the one /reset-unlock-code needs).
    expect((await homeStatus(t.app, signedIn.access)).status).toBe(200);
  });
});

describe('the request logs', () => {
  it('show the calls (control) but never an unlock code', () => {
    const logs = logLines.join('');
    expect(logs).toContain('/api/v1/set-unlock-code');
    expect(logs).toContain('request completed');
    expect(logs).not.toContain('unlockCode');
    expect(logs).not.toContain('currentUnlockCode');
    for (const code of ['3971', '6203', '5802', '7315', '9075', '2468']) expect(logs).not.toContain(`"${code}"`);
  });
});
