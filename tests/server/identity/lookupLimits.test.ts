/**
 * The account-lookup limit: POST /verify/email and POST /phone-number-in-use say whether an account
 * has an email or phone, so every lookup (whatever its answer) is counted in the database per client:
 * per IP (IPv6 per /64) always, and per Device-UUID when one is sent. Over a limit the call answers 429
 * `{201, retryAfterSeconds}` with Retry-After until the window ends; other clients are not affected,
 * the wait survives a restart, parallel lookups never pass a limit (also on real PostgreSQL; PG_TESTS=0
 * leaves that out), and normal use is answered exactly as before.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { deviceSubject, ipSubject, lookupPerDevicePolicy, lookupPerIpPolicy } from '../../../server/attemptLimits.ts';
import { attemptLimits } from '../../../server/db/schema/index.ts';
import {
  appOnPostgres,
  clearAttemptLimits,
  demoCardholder,
  describeOnPostgres,
  postFrom,
  restartingOnOneDatabase,
  startTestApp,
  type TestApp,
} from '../helpers.ts';

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

type Client = { ip?: string; device?: string };

/** A lookup as the app sends it: JSON body, the client's Device-UUID (when it has one), from `ip`. */
function lookup(app: FastifyInstance, url: '/verify/email' | '/phone-number-in-use', payload: object, client: Client = {}) {
  return postFrom(app, url, payload, { ...client, ip: client.ip ?? '203.0.113.10' });
}

const emailLookup = (client: Client, app: FastifyInstance = t.app) =>
  lookup(app, '/verify/email', { email: 'nobody@example.com' }, client);
const phoneLookup = (client: Client, app: FastifyInstance = t.app) => lookup(app, '/phone-number-in-use', { phone: '5592010100' }, client);

/** `times` lookups, alternating between the two calls (they share one count); their HTTP statuses. */
async function lookUp(times: number, client: Client, app: FastifyInstance = t.app): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < times; i += 1) statuses.push((await (i % 2 === 0 ? emailLookup : phoneLookup)(client, app)).statusCode);
  return statuses;
}

/** Ends every running lookup window, as if its 10 minutes had passed. */
async function endLookupWindows(): Promise<void> {
  await t.db
    .update(attemptLimits)
    .set({ lockedUntil: sql`now() - interval '1 second'` })
    .where(sql`${attemptLimits.scope} = 'lookup'`);
}

async function countOf(subject: string): Promise<number | undefined> {
  const [row] = await t.db
    .select({ failures: attemptLimits.failures })
    .from(attemptLimits)
    .where(sql`${attemptLimits.scope} = 'lookup' and ${attemptLimits.subject} = ${subject}`);
  return row?.failures;
}

function expectTooMany(response: Awaited<ReturnType<typeof lookup>>) {
  expect(response.statusCode, response.body).toBe(429);
  const body = response.json<{ statusCode: number; retryAfterSeconds: number }>();
  expect(body).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
  expect(body.retryAfterSeconds).toBeGreaterThan(lookupPerDevicePolicy.windowMinutes * 60 - 10);
  expect(body.retryAfterSeconds).toBeLessThanOrEqual(lookupPerDevicePolicy.windowMinutes * 60);
  expect(response.headers['retry-after']).toBe(String(body.retryAfterSeconds));
}

const device = 'a3c1b2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const otherDevice = 'b7e2c3d4-1a2b-4c3d-9e8f-7a6b5c4d3e2f';

describe('normal use', () => {
  it('answers the lookups exactly as before, with no Retry-After', async () => {
    const client = { device };
    const known = await lookup(t.app, '/verify/email', { email: demoCardholder.email }, client);
    const unknown = await emailLookup(client);
    const inUse = await lookup(t.app, '/phone-number-in-use', { phone: demoCardholder.phone }, client);
    const free = await phoneLookup(client);

    expect([known.statusCode, known.body]).toEqual([200, '{"statusCode":0}']);
    expect([unknown.statusCode, unknown.body]).toEqual([404, '{"statusCode":3}']);
    expect([inUse.statusCode, inUse.body]).toEqual([200, '{"statusCode":0,"inUse":true}']);
    expect([free.statusCode, free.body]).toEqual([200, '{"statusCode":0,"inUse":false}']);
    expect([known, unknown, inUse, free].map((r) => r.headers['retry-after'])).toEqual(Array(4).fill(undefined));
  });

  it('counts every lookup, found or not, and not a body that breaks a rule', async () => {
    await lookup(t.app, '/verify/email', { email: demoCardholder.email }, { device });
    await emailLookup({ device });
    await phoneLookup({ device });
    await lookup(t.app, '/verify/email', { email: 'demo@' }, { device });

    expect(await countOf(`device:${device}`)).toBe(3);
    expect(await countOf(ipSubject('203.0.113.10'))).toBe(3);
  });
});

describe('the per-device limit', () => {
  it(`allows ${lookupPerDevicePolicy.limit} lookups per device in the window, then answers 429 {201, retryAfterSeconds} to both calls`, async () => {
    const statuses = await lookUp(lookupPerDevicePolicy.limit, { device });
    expect(new Set(statuses)).toEqual(new Set([200, 404]));

    expectTooMany(await emailLookup({ device }));
    expectTooMany(await phoneLookup({ device }));
    expectTooMany(await lookup(t.app, '/verify/email', { email: demoCardholder.email }, { device }));
  });

  it('counts nothing while refusing', async () => {
    await lookUp(lookupPerDevicePolicy.limit + 5, { device });
    expect(await countOf(`device:${device}`)).toBe(lookupPerDevicePolicy.limit);
  });

  it('lets parallel lookups through only up to the limit (bounded update)', async () => {
    const answers = await Promise.all(Array.from({ length: lookupPerDevicePolicy.limit + 10 }, () => emailLookup({ device })));
    expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(lookupPerDevicePolicy.limit);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10);
  });

  it('leaves another device on the same IP, and the same device id elsewhere, alone', async () => {
    await lookUp(lookupPerDevicePolicy.limit, { device });
    expectTooMany(await emailLookup({ device }));

    expect((await emailLookup({ device: otherDevice })).statusCode).toBe(404);
    expect((await phoneLookup({ device: otherDevice, ip: '198.51.100.7' })).statusCode).toBe(200);
  });

  it('allows lookups again once the window has ended, counting afresh', async () => {
    await lookUp(lookupPerDevicePolicy.limit, { device });
    expectTooMany(await emailLookup({ device }));
    await endLookupWindows();

    expect((await emailLookup({ device })).statusCode).toBe(404);
    expect(await countOf(`device:${device}`)).toBe(1);
  });
});

describe('the per-IP limit', () => {
  it(`allows ${lookupPerIpPolicy.limit} lookups per IP however the Device-UUID changes, then answers 429`, async () => {
    const ip = '192.0.2.44';
    const statuses = [];
    for (let i = 0; i < lookupPerIpPolicy.limit; i += 1) {
      statuses.push((await emailLookup({ ip, device: crypto.randomUUID() })).statusCode);
    }
    expect(statuses.every((status) => status === 404)).toBe(true);

    expectTooMany(await emailLookup({ ip, device: crypto.randomUUID() }));
    expectTooMany(await phoneLookup({ ip }));
    // A refused lookup adds no row for its made-up device id.
    const rows = await t.db.select().from(attemptLimits).where(sql`${attemptLimits.scope} = 'lookup'`);
    expect(rows).toHaveLength(lookupPerIpPolicy.limit + 1);
    // Another address is not affected.
    expect((await emailLookup({ ip: '192.0.2.45', device: crypto.randomUUID() })).statusCode).toBe(404);
  });

  it('counts a client without a well-formed Device-UUID by its IP alone', async () => {
    const ip = '192.0.2.60';
    await lookUp(lookupPerIpPolicy.limit / 2, { ip });
    await lookUp(lookupPerIpPolicy.limit / 2, { ip, device: 'x' });

    expectTooMany(await emailLookup({ ip }));
    const rows = await t.db.select().from(attemptLimits).where(sql`${attemptLimits.scope} = 'lookup'`);
    expect(rows.map((row) => row.subject)).toEqual([ipSubject(ip)]);
  });

  it('counts IPv6 clients per /64, and each /64 apart', async () => {
    await lookUp(lookupPerIpPolicy.limit - 1, { ip: '2001:db8:1:2::1' });
    expect((await emailLookup({ ip: '2001:db8:1:2:ffff:1:2:3' })).statusCode).toBe(404);

    expectTooMany(await emailLookup({ ip: '2001:db8:1:2::99' }));
    expect((await emailLookup({ ip: '2001:db8:1:3::1' })).statusCode).toBe(404);
  });
});

describe('lookup subjects', () => {
  it.each([
    ['203.0.113.10', 'ip:203.0.113.10'],
    ['::ffff:203.0.113.10', 'ip:203.0.113.10'],
    ['::1', 'ip:0:0:0:0::/64'],
    ['2001:db8:1:2::1', 'ip:2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aaaa:bbbb:cccc:dddd', 'ip:2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'ip:fe80:0:0:0::/64'],
  ])('counts %j as %j', (ip, subject) => {
    expect(ipSubject(ip)).toBe(subject);
  });

  it.each([
    [device, `device:${device}`],
    ['host-device-0123456789abcdef', 'device:host-device-0123456789abcdef'],
    ['', null],
    ['short', null],
    ['x'.repeat(129), null],
    ['has space in it', null],
    [undefined, null],
    [['a3c1b2d4-5e6f', 'again'], null],
  ])('takes the Device-UUID %j as %j', (header, subject) => {
    expect(deviceSubject(header)).toBe(subject);
  });
});

describe('the lookup wait across a restart', () => {
  it('still answers 429 after the server restarts on the same database', async () => {
    await restartingOnOneDatabase(async (start) => {
      const first = await start();
      await lookUp(lookupPerDevicePolicy.limit, { device }, first.app);
      expectTooMany(await emailLookup({ device }, first.app));
      await first.close();

      const second = await start();
      const after = await phoneLookup({ device }, second.app);
      const otherClient = await phoneLookup({ device: otherDevice, ip: '198.51.100.7' }, second.app);
      await second.close();
      expectTooMany(after);
      expect(otherClient.statusCode).toBe(200);
    });
  }, 60_000);
});

describeOnPostgres('the lookup limit on real PostgreSQL', { timeout: 60_000 }, () => {
  let pg: TestApp;
  appOnPostgres((app) => void (pg = app));

  it('lets 40 parallel lookups from one device through only up to the limit', async () => {
    expect(pg.kind).toBe('postgres');
    const answers = await Promise.all(
      Array.from({ length: lookupPerDevicePolicy.limit + 10 }, () => emailLookup({ device, ip: '198.51.100.20' }, pg.app)),
    );
    expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(lookupPerDevicePolicy.limit);
    for (const refused of answers.filter((a) => a.statusCode !== 404)) expectTooMany(refused);
  });
});
