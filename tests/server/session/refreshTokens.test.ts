/**
 * Unlock (POST /refresh-tokens): rotation of single-use refresh tokens, reuse detection that ends the
 * whole session, and the five-attempt limit on wrong unlock codes; expired sessions' tokens deleted.
 */
import { eq, isNotNull } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { refreshTokens, users } from '../../../server/db/schema/index.ts';
import { createSessions, lostAnswerGraceSeconds, refreshGraceSeconds } from '../../../server/sessions.ts';
import { bearer, demoCardholder, demoCredentials, demoUser, homeStatus, signIn, startTestApp, type TestApp, unlock, unlockFailures } from '../helpers.ts';

const wrongCode = '1111';

let t: TestApp;
let session: { access: string; refresh: string };

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
// The unlock counter and token families must not leak between cases.
beforeEach(async () => {
  await t.db.delete(refreshTokens);
  await t.db.update(users).set({ unlockFailures: 0 });
  session = await signIn(t.app);
});

describe('POST /api/v1/refresh-tokens with the right unlock code', () => {
  it('answers SUCCESS with a new access token and a new refresh token', async () => {
    const answer = await unlock(t.app, session.refresh);

    expect(answer.status).toBe(200);
    expect(answer.body.statusCode).toBe(StatusCode.SUCCESS);
    expect(answer.body.isInternal).toBe(false);
    expect(answer.body.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(answer.body.access).not.toBe(session.access);
    expect(answer.body.refresh).toEqual(expect.any(String));
    expect(answer.body.refresh).not.toBe(session.refresh);
  });

  it('keeps the session: the new access token carries the same session id and opens home', async () => {
    const answer = await unlock(t.app, session.refresh);

    expect(decodeJwt(answer.body.access!).sid).toBe(decodeJwt(session.access).sid);
    expect((await homeStatus(t.app, answer.body.access!)).status).toBe(200);
  });

  it('lets the new refresh token unlock again (rotation continues)', async () => {
    const first = await unlock(t.app, session.refresh);
    const second = await unlock(t.app, first.body.refresh!);

    expect(second.status).toBe(200);
    expect(second.body.statusCode).toBe(StatusCode.SUCCESS);
    expect(second.body.refresh).not.toBe(first.body.refresh);
  });

  it('answers SIGN_IN_REQUIRED without a refresh token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/refresh-tokens', payload: { unlockCode: '2580' } });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('does not accept an access token in place of the refresh token', async () => {
    const answer = await unlock(t.app, session.access);

    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});

describe('reuse of a spent refresh token', () => {
  it('answers SIGN_IN_REQUIRED for the spent token', async () => {
    await unlock(t.app, session.refresh);
    const replay = await unlock(t.app, session.refresh);

    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('revokes the whole family: the newest refresh token and the newest access token stop working', async () => {
    const rotated = await unlock(t.app, session.refresh);
    expect(rotated.body.statusCode).toBe(StatusCode.SUCCESS);

    await unlock(t.app, session.refresh); // replay, e.g. by a thief holding the old token

    const successor = await unlock(t.app, rotated.body.refresh!);
    expect(successor.status).toBe(401);
    expect(successor.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const home = await homeStatus(t.app, rotated.body.access!);
    expect(home.status).toBe(401);
    expect(home.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('leaves other sessions of the same cardholder alone', async () => {
    const other = await signIn(t.app);
    await unlock(t.app, session.refresh);
    await unlock(t.app, session.refresh);

    expect((await homeStatus(t.app, other.access)).status).toBe(200);
    expect((await unlock(t.app, other.refresh)).body.statusCode).toBe(StatusCode.SUCCESS);
  });
});

describe('wrong unlock codes', () => {
  it('answers INVALID_REFRESH_CREDENTIALS with attemptsLeft counting down 4, 3, 2, 1, 0', async () => {
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) answers.push(await unlock(t.app, session.refresh, wrongCode));

    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.map((answer) => answer.body)).toEqual([4, 3, 2, 1, 0].map((attemptsLeft) => ({
      statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS,
      attemptsLeft,
    })));
  });

  it('does not spend the refresh token: the right code still works after a wrong one', async () => {
    await unlock(t.app, session.refresh, wrongCode);
    const answer = await unlock(t.app, session.refresh);

    expect(answer.status).toBe(200);
    expect(answer.body.statusCode).toBe(StatusCode.SUCCESS);
  });

  it('ends the session after the fifth wrong code, even for the right code', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) await unlock(t.app, session.refresh, wrongCode);

    const rightCode = await unlock(t.app, session.refresh);
    expect(rightCode.status).toBe(401);
    expect(rightCode.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const home = await homeStatus(t.app, session.access);
    expect(home.status).toBe(401);
    expect(home.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('compares at most five codes of a burst of parallel guesses: the right one after them is refused', async () => {
    // Each try is counted before its code is compared. Counted after, every guess that arrived before
    // the first count was compared (13 to 15 of these 20 here), and with 10,000 codes a burst of hundreds found the
    // right one. (All wrong: which five of a burst get their try depends on the order they arrive.)
    const guesses = Array.from({ length: 20 }, (_, i) => String(1000 + i));
    const scrypt = vi.spyOn(crypto, 'scrypt');
    syncBuiltinESMExports();
    try {
      const answers = await Promise.all(guesses.map((code) => unlock(t.app, session.refresh, code)));
      expect(scrypt.mock.calls.length, 'codes compared').toBeLessThanOrEqual(5);
      expect(answers.every((answer) => answer.status === 401)).toBe(true);
    } finally {
      scrypt.mockRestore();
      syncBuiltinESMExports();
    }
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(5);
    expect((await unlock(t.app, session.refresh)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it("gives a right code's try back: after four wrong codes, the right one takes the last try and still changes the code", async () => {
    const user = await demoUser(t.db);
    for (let attempt = 0; attempt < 4; attempt += 1) await unlock(t.app, session.refresh, wrongCode);
    try {
      const changed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/set-unlock-code',
        headers: bearer(session.access),
        payload: { currentUnlockCode: demoCardholder.unlockCode, unlockCode: '8642' },
      });
      expect(changed.json()).toEqual({ statusCode: StatusCode.SUCCESS });
      expect(await unlockFailures(t.db, user.id)).toBe(0);
    } finally {
      // The demo cardholder's code, as the other cases expect it.
      await t.db.update(users).set({ unlockCodeHash: user.unlockCodeHash }).where(eq(users.id, user.id));
    }
  });

  it('stores the failure count on the cardholder, capped at five', async () => {
    const user = await demoUser(t.db);
    for (let attempt = 0; attempt < 3; attempt += 1) await unlock(t.app, session.refresh, wrongCode);
    expect(await unlockFailures(t.db, user.id)).toBe(3);

    for (let attempt = 0; attempt < 4; attempt += 1) await unlock(t.app, session.refresh, wrongCode);
    expect(await unlockFailures(t.db, user.id)).toBe(5);
  });

  it('counts per cardholder: guesses on one device count against a session on another device', async () => {
    const otherDevice = await signIn(t.app); // signed in before any guessing
    for (let attempt = 0; attempt < 3; attempt += 1) await unlock(t.app, session.refresh, wrongCode);

    const answer = await unlock(t.app, otherDevice.refresh, wrongCode);
    expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 1 });
  });

  it('keeps the count after a successful sign-in (a password does not undo wrong unlock codes)', async () => {
    await unlock(t.app, session.refresh, wrongCode);
    await unlock(t.app, session.refresh, wrongCode);

    const fresh = await signIn(t.app);
    const answer = await unlock(t.app, fresh.refresh, wrongCode);
    expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 2 });
  });

  it('ends every session of the cardholder at the lockout, other devices included', async () => {
    const otherDevice = await signIn(t.app);
    for (let attempt = 0; attempt < 5; attempt += 1) await unlock(t.app, session.refresh, wrongCode);

    expect((await homeStatus(t.app, otherDevice.access)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect((await unlock(t.app, otherDevice.refresh)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('after a lockout, a new sign-in says mustResetUnlockCode and its refresh token cannot unlock until the code is reset', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) await unlock(t.app, session.refresh, wrongCode);

    const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: demoCredentials });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ statusCode: StatusCode.SUCCESS, mustResetUnlockCode: true });
    const answer = await unlock(t.app, response.json().refresh);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(5);
  });

  it('refuses /set-unlock-code during a lockout as it refuses unlocking, even with the right current code (only the SSN reset ends it)', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) await unlock(t.app, session.refresh, wrongCode);
    const fresh = await signIn(t.app);
    const setUnlockCode = (currentUnlockCode: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/set-unlock-code',
        headers: { authorization: `Bearer ${fresh.access}` },
        payload: { currentUnlockCode, unlockCode: '8642' },
      });

    for (const currentUnlockCode of [demoCardholder.unlockCode, wrongCode]) {
      const response = await setUnlockCode(currentUnlockCode);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    }
    expect(await unlockFailures(t.db, (await demoUser(t.db)).id)).toBe(5);
    // The new sign-in's session is kept for /reset-unlock-code, as /refresh-tokens keeps it.
    expect((await homeStatus(t.app, fresh.access)).status).toBe(200);
  });

  it('answers mustResetUnlockCode false on an ordinary sign-in', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/sign-in', payload: demoCredentials });
    expect(response.json()).toMatchObject({ statusCode: StatusCode.SUCCESS, mustResetUnlockCode: false });
  });

  it('resets the count after a successful unlock', async () => {
    await unlock(t.app, session.refresh, wrongCode);
    await unlock(t.app, session.refresh, wrongCode);
    const success = await unlock(t.app, session.refresh);

    const answer = await unlock(t.app, success.body.refresh!, wrongCode);
    expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 4 });
  });
});

describe('two refreshes with one refresh token from one device (two tabs)', () => {
  const device = 'a3c1b2d4-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
  const unlockFrom = async (refresh: string, from: string | null) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh-tokens',
      headers: { authorization: `Bearer ${refresh}`, ...(from && { 'device-uuid': from }) },
      payload: { unlockCode: demoCardholder.unlockCode },
    });
    return { status: response.statusCode, body: response.json() };
  };

  it('answers the second, within the grace, with the same new refresh token and keeps the session', async () => {
    // The card API's clock stands still: the second comes within the grace however slow the machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const first = await unlockFrom(session.refresh, device);
      const second = await unlockFrom(session.refresh, device);

      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.refresh).toBe(first.body.refresh);
      expect((await homeStatus(t.app, second.body.access)).status).toBe(200);
      expect((await unlockFrom(first.body.refresh, device)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps no successor in the clear: the stored seal does not contain it', async () => {
    const first = await unlockFrom(session.refresh, device);
    const rows = await t.db.select({ sealed: refreshTokens.successorSealed }).from(refreshTokens);
    expect(rows.some((row) => row.sealed?.includes(first.body.refresh))).toBe(false);
    expect(rows.some((row) => row.sealed)).toBe(true);
  });

  it('still treats the spent token as stolen from another device, or with no device, and ends the session', async () => {
    for (const other of ['b4d2c3e5-6f70-4b2c-9d3e-4f5a6b7c8d9e', null]) {
      session = await signIn(t.app);
      const first = await unlockFrom(session.refresh, device);
      const replay = await unlockFrom(session.refresh, other);
      expect(replay).toEqual({ status: 401, body: { statusCode: StatusCode.SIGN_IN_REQUIRED } });
      expect((await unlockFrom(first.body.refresh, device)).status).toBe(401);
    }
  });

  it("counts the grace by the card API's clock, whatever the database's says (another host's may be a minute off)", async () => {
    // This server's clock a minute ahead of the database's.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60_000 });
    try {
      const first = await unlockFrom(session.refresh, device);
      const second = await unlockFrom(session.refresh, device);
      expect(second.status).toBe(200);
      expect(second.body.refresh).toBe(first.body.refresh);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers it again past the grace while its successor is unused: the answer that carried it was lost', async () => {
    const first = await unlockFrom(session.refresh, device);
    // Spent past the two tabs' grace, within the lost answer's (an unlock retyped after the error modal).
    expect(refreshGraceSeconds + 60).toBeLessThan(lostAnswerGraceSeconds);
    await t.db.update(refreshTokens).set({ usedAt: new Date(Date.now() - (refreshGraceSeconds + 60) * 1000) }).where(isNotNull(refreshTokens.usedAt));

    const again = await unlockFrom(session.refresh, device);
    expect(again.status).toBe(200);
    expect(again.body.refresh).toBe(first.body.refresh);
    expect((await homeStatus(t.app, again.body.access)).status).toBe(200);
    // From another device it is still someone else's: the session ends.
    expect(await unlockFrom(session.refresh, 'b4d2c3e5-6f70-4b2c-9d3e-4f5a6b7c8d9e')).toEqual({ status: 401, body: { statusCode: StatusCode.SIGN_IN_REQUIRED } });
  });

  it('ends the session when, past the grace, its successor was used: the spent token is someone else’s', async () => {
    const first = await unlockFrom(session.refresh, device);
    expect((await unlockFrom(first.body.refresh, device)).status).toBe(200);
    await t.db.update(refreshTokens).set({ usedAt: new Date(Date.now() - (refreshGraceSeconds + 1) * 1000) }).where(isNotNull(refreshTokens.usedAt));

    expect(await unlockFrom(session.refresh, device)).toEqual({ status: 401, body: { statusCode: StatusCode.SIGN_IN_REQUIRED } });
  });

  it('ends the session when the same device presents it after the lost answer’s grace', async () => {
    const first = await unlockFrom(session.refresh, device);
    // The grace is counted from when the token was spent: move that back past it.
    await t.db.update(refreshTokens).set({ usedAt: new Date(Date.now() - (lostAnswerGraceSeconds + 1) * 1000) }).where(isNotNull(refreshTokens.usedAt));

    expect(await unlockFrom(session.refresh, device)).toEqual({ status: 401, body: { statusCode: StatusCode.SIGN_IN_REQUIRED } });
    expect((await unlockFrom(first.body.refresh, device)).status).toBe(401);
  });
});

describe('expired sessions deleted (sessions.ts deleteExpired, at start and hourly)', () => {
  const familyOf = (access: string) => String(decodeJwt(access).sid);
  const rowsOf = async (familyId: string) => (await t.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, familyId))).length;

  it('deletes a session a day past its absolute expiry, spent and revoked tokens too; keeps a live one and one just expired, whose revocation an access token may still need', async () => {
    const sessions = createSessions(t.db, t.config);
    const live = session;
    const old = await signIn(t.app);
    await unlock(t.app, old.refresh);
    const justExpired = await signIn(t.app);
    await t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: bearer(justExpired.access) });
    // One instant for the rows and the delete: a slow machine's seconds between them change nothing.
    const now = new Date();
    const day = 24 * 60 * 60 * 1000;
    await t.db.update(refreshTokens).set({ expiresAt: new Date(now.getTime() - day - 60_000) }).where(eq(refreshTokens.familyId, familyOf(old.access)));
    await t.db.update(refreshTokens).set({ expiresAt: new Date(now.getTime() - day + 60_000) }).where(eq(refreshTokens.familyId, familyOf(justExpired.access)));
    expect(await rowsOf(familyOf(old.access))).toBe(2);

    expect(await sessions.deleteExpired(now)).toBe(2);
    expect(await rowsOf(familyOf(old.access))).toBe(0);
    expect(await rowsOf(familyOf(live.access))).toBe(1);
    // Signed out and expired less than a day ago: still known as revoked.
    expect(await sessions.isFamilyRevoked(familyOf(justExpired.access))).toBe(true);
    expect((await homeStatus(t.app, live.access)).status).toBe(200);
    expect(await sessions.deleteExpired(now)).toBe(0);
  });
});
