/**
 * POST /register's CIP_TAKEN answer (403 `{2}`) tells whether an identity (SSN, email, …) has an
 * account, so it counts against the per-client account-lookup limit of /verify/email and
 * /phone-number-in-use (docs/security.md item 5): every CIP_TAKEN is counted per IP and per
 * Device-UUID; once the client is over a limit it is answered 429 `{201, retryAfterSeconds}` instead,
 * and a client already over a limit is refused before any registration work (nothing is created, the
 * mfaToken is not spent). Other clients are not affected.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RegistrationPayload } from '../../../contract/identity/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { ipSubject, lookupPerDevicePolicy, lookupPerIpPolicy } from '../../../server/attemptLimits.ts';
import { attemptLimits, users } from '../../../server/db/schema/index.ts';
import { type ApiClient, clearAttemptLimits, demoCardholder, postFrom, startTestApp, type TestApp, verifiedApplicant } from '../helpers.ts';

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

const device = 'c4d2e3f4-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const otherDevice = 'd5e3f4a5-7b8c-4d9e-8f0a-2b3c4d5e6f7a';
const ip = '198.51.100.30';
const otherIp = '198.51.100.31';

const register = (payload: RegistrationPayload, client: ApiClient) => postFrom(t.app, '/register', payload, client);
const emailLookup = (client: ApiClient) => postFrom(t.app, '/verify/email', { email: 'nobody@example.com' }, client);

/** An applicant with a verified phone whose SSN is the demo cardholder's: answered CIP_TAKEN. */
const takenApplicant = () => verifiedApplicant(t.app, { ssn: demoCardholder.ssn });

async function lookUp(times: number, client: ApiClient): Promise<void> {
  for (let i = 0; i < times; i += 1) expect((await emailLookup(client)).statusCode).toBe(404);
}

async function countOf(subject: string): Promise<number | undefined> {
  const [row] = await t.db
    .select({ failures: attemptLimits.failures })
    .from(attemptLimits)
    .where(sql`${attemptLimits.scope} = 'lookup' and ${attemptLimits.subject} = ${subject}`);
  return row?.failures;
}

async function usersCount(): Promise<number> {
  return (await t.db.select({ id: users.id }).from(users)).length;
}

/** Ends every running lookup window, as if its 10 minutes had passed. */
async function endLookupWindows(): Promise<void> {
  await t.db
    .update(attemptLimits)
    .set({ lockedUntil: sql`now() - interval '1 second'` })
    .where(sql`${attemptLimits.scope} = 'lookup'`);
}

function expectTaken(response: Awaited<ReturnType<typeof register>>) {
  expect([response.statusCode, response.body]).toEqual([403, '{"statusCode":2}']);
}

function expectTooMany(response: Awaited<ReturnType<typeof register>>) {
  expect(response.statusCode, response.body).toBe(429);
  const body = response.json<{ statusCode: number; retryAfterSeconds: number }>();
  expect(body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
  expect(body.retryAfterSeconds).toBeGreaterThan(lookupPerDevicePolicy.windowMinutes * 60 - 10);
  expect(body.retryAfterSeconds).toBeLessThanOrEqual(lookupPerDevicePolicy.windowMinutes * 60);
  expect(response.headers['retry-after']).toBe(String(body.retryAfterSeconds));
}

describe('POST /register counts CIP_TAKEN as an account lookup', () => {
  it('counts each CIP_TAKEN answer per IP and per Device-UUID', async () => {
    const applicant = await takenApplicant();
    expectTaken(await register(applicant, { ip, device }));
    expectTaken(await register(applicant, { ip, device }));

    expect(await countOf(`device:${device}`)).toBe(2);
    expect(await countOf(ipSubject(ip))).toBe(2);
  });

  it('does not count a registration that opens an account', async () => {
    const applicant = await verifiedApplicant(t.app);
    expect((await register(applicant, { ip, device })).statusCode).toBe(200);

    expect(await countOf(`device:${device}`)).toBeUndefined();
    expect(await countOf(ipSubject(ip))).toBeUndefined();
  });

  it(`answers 429 {201, retryAfterSeconds} instead of CIP_TAKEN past ${lookupPerDevicePolicy.limit} per device, other clients unaffected`, async () => {
    const applicant = await takenApplicant();
    for (let i = 0; i < lookupPerDevicePolicy.limit; i += 1) expectTaken(await register(applicant, { ip, device }));

    expectTooMany(await register(applicant, { ip, device }));
    expect(await countOf(`device:${device}`)).toBe(lookupPerDevicePolicy.limit);
    // Another device on the same IP, and another IP without a device, still get their answer.
    expectTaken(await register(applicant, { ip, device: otherDevice }));
    expectTaken(await register(applicant, { ip: otherIp }));
  });

  it('shares the count with /verify/email: lookups first, then the CIP_TAKEN is refused', async () => {
    const applicant = await takenApplicant();
    await lookUp(lookupPerDevicePolicy.limit - 1, { ip, device });
    // The last lookup the window allows: still the real answer.
    expectTaken(await register(applicant, { ip, device }));

    expectTooMany(await register(applicant, { ip, device }));
    expectTooMany(await emailLookup({ ip, device }));
    expectTaken(await register(applicant, { ip, device: otherDevice }));
  });

  it(`counts per IP however the Device-UUID changes (${lookupPerIpPolicy.limit} per IP)`, async () => {
    const applicant = await takenApplicant();
    for (let i = 0; i < lookupPerIpPolicy.limit; i += 1) expect((await emailLookup({ ip, device: crypto.randomUUID() })).statusCode).toBe(404);

    expectTooMany(await register(applicant, { ip, device: crypto.randomUUID() }));
    expectTooMany(await register(applicant, { ip }));
    expectTaken(await register(applicant, { ip: otherIp, device: crypto.randomUUID() }));
  });
});

describe('POST /register from a client already over the lookup limit', () => {
  it('is refused with 429 before any work: no account, the mfaToken not spent, nothing counted', async () => {
    await lookUp(lookupPerDevicePolicy.limit, { ip, device });
    const applicant = await verifiedApplicant(t.app);
    const before = await usersCount();

    expectTooMany(await register(applicant, { ip, device }));
    expectTooMany(await register({ ...applicant, ssn: demoCardholder.ssn }, { ip, device }));

    expect(await usersCount()).toBe(before);
    expect(await countOf(`device:${device}`)).toBe(lookupPerDevicePolicy.limit);
    expect(await countOf(ipSubject(ip))).toBe(lookupPerDevicePolicy.limit);

    // Once the window has ended the same application (same mfaToken) opens the account.
    await endLookupWindows();
    expect((await register(applicant, { ip, device })).statusCode).toBe(200);
    expect(await usersCount()).toBe(before + 1);
  });

  it('still answers a malformed or rule-breaking body as before (400), which tells nothing', async () => {
    await lookUp(lookupPerDevicePolicy.limit, { ip, device });
    const applicant = await verifiedApplicant(t.app);

    const broken = await register({ ...applicant, email: 'not-an-email' }, { ip, device });

    expect(broken.statusCode).toBe(400);
    expect(broken.json<{ statusCode: number }>().statusCode).toBe(StatusCode.FAILED_VALIDATION);
  });
});
