/**
 * Hashes made at an older scrypt cost (or of a password as typed, before NFKC) keep working, and are
 * made again at today's cost from the secret just checked: at sign-in for the password, at unlock for
 * the unlock code (server/secrets.ts `hashIsOutdated`). A change made meanwhile is never overwritten.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { users } from '../../../server/db/schema/index.ts';
import { renewPasswordHash } from '../../../server/features/session/unlock.ts';
import { hashIsOutdated, hashSecret, verifySecret } from '../../../server/secrets.ts';
import { hashAtCost, unwrittenCostHash } from '../../support/oldHashes.ts';
import { clearAttemptLimits, demoCardholder, demoCredentials, demoUser, signIn, signInWith, startTestApp, type TestApp, unlock } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await clearAttemptLimits(t.db);
});

const setDemoHashes = (set: { passwordHash?: string; unlockCodeHash?: string }) => t.db.update(users).set(set).where(eq(users.email, demoCardholder.email));

describe('a password hash made at an older cost', () => {
  it('signs in, and is then stored again at today\'s cost, still for the same password', async () => {
    const old = unwrittenCostHash(demoCardholder.password);
    await setDemoHashes({ passwordHash: old });

    await signIn(t.app);
    const renewed = (await demoUser(t.db)).passwordHash!;
    expect(renewed).not.toBe(old);
    expect(hashIsOutdated(renewed)).toBe(false);
    expect(await verifySecret(demoCardholder.password, renewed)).toBe(true);
    // And once renewed, a sign-in leaves it as it is.
    await signIn(t.app);
    expect((await demoUser(t.db)).passwordHash).toBe(renewed);
  });

  it('is left alone by a wrong password', async () => {
    const old = hashAtCost(demoCardholder.password, { ln: 11, r: 8, p: 1 });
    await setDemoHashes({ passwordHash: old });
    expect((await signInWith(t.app, { ...demoCredentials, password: 'Not-the-password-1' })).body.statusCode).toBe(StatusCode.INVALID_CREDENTIALS);
    expect((await demoUser(t.db)).passwordHash).toBe(old);
    await signIn(t.app);
    expect((await demoUser(t.db)).passwordHash).not.toBe(old);
  });
});

describe('a password hashed as typed, before NFKC', () => {
  it('signs in as typed, and is then stored normalised: the composed form signs in too', async () => {
    const typed = 'Cafe\u0301-antiguo-2025';
    await setDemoHashes({ passwordHash: await hashSecret(typed) });
    expect((await signInWith(t.app, { email: demoCardholder.email, password: 'Caf\u00e9-antiguo-2025' })).status).toBe(401);
    await clearAttemptLimits(t.db);

    expect((await signInWith(t.app, { email: demoCardholder.email, password: typed })).status).toBe(200);
    expect((await signInWith(t.app, { email: demoCardholder.email, password: 'Caf\u00e9-antiguo-2025' })).status).toBe(200);
    expect((await signInWith(t.app, { email: demoCardholder.email, password: typed })).status).toBe(200);
  });
});

describe('an unlock code hash made at an older cost', () => {
  it('unlocks, and is then stored again at today\'s cost, still for the same code', async () => {
    await setDemoHashes({ passwordHash: await hashSecret(demoCardholder.password) });
    const session = await signIn(t.app);
    const old = unwrittenCostHash(demoCardholder.unlockCode);
    await setDemoHashes({ unlockCodeHash: old });

    const unlocked = await unlock(t.app, session.refresh);
    expect(unlocked.body.statusCode).toBe(StatusCode.SUCCESS);
    const renewed = (await demoUser(t.db)).unlockCodeHash!;
    expect(hashIsOutdated(renewed)).toBe(false);
    expect(await verifySecret(demoCardholder.unlockCode, renewed)).toBe(true);
    expect((await unlock(t.app, unlocked.body.refresh!)).body.statusCode).toBe(StatusCode.SUCCESS);
  });
});

describe('renewing never undoes a change made meanwhile', () => {
  it('keeps a password set after the old hash was read', async () => {
    const old = unwrittenCostHash(demoCardholder.password);
    const reset = await hashSecret('Sunflower-2027');
    await setDemoHashes({ passwordHash: reset });
    const user = await demoUser(t.db);

    await renewPasswordHash(t.db, user.id, old, await hashSecret(demoCardholder.password));
    expect((await demoUser(t.db)).passwordHash).toBe(reset);
    await setDemoHashes({ passwordHash: await hashSecret(demoCardholder.password) });
  });
});
