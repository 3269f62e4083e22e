/**
 * Calls that cost money per request, limited per client as account lookups are (per IP always, per
 * Device-UUID when one is sent, counted in the database whatever the answer): POST
 * /request-verification texts a code to any phone (10 per device, 100 per IP per 10 minutes), and POST
 * /verify-address asks the paid address partner (30 per device, 100 per IP). Over a limit: 429 `{201,
 * retryAfterSeconds}` with Retry-After, nothing texted or checked; other clients are answered as before.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { addressCheckLimit, textsLimit, type ClientLimit } from '../../../server/attemptLimits.ts';
import { type ApiClient, clearAttemptLimits, outbox, postFrom, startTestApp, type TestApp } from '../helpers.ts';

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

type Call = (app: FastifyInstance, n: number, client: ApiClient) => Promise<LightMyRequestResponse>;
/** A new phone each time (per-phone limits stay out of the way): 559-44x-xxxx, mobile in the sandbox. */
const phoneNumber = (n: number) => `55944${String(n).padStart(5, '0')}`;
const requestCode: Call = (app, n, client) => postFrom(app, '/request-verification', { phone: phoneNumber(n) }, client);
const checkAddress: Call = (app, n, client) =>
  postFrom(app, '/verify-address', { street1: `${100 + n} W Olive Ave`, street2: '', city: 'Fresno', state: 'CA', zip: '93728', addressType: 'legal' }, client);

const calls: [string, Call, ClientLimit][] = [
  ['POST /request-verification', requestCode, textsLimit],
  ['POST /verify-address', checkAddress, addressCheckLimit],
];

function expectTooMany(response: Awaited<ReturnType<Call>>) {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(9 * 60);
}

describe.each(calls)('%s per client', (_name, call, limit) => {
  it('answers a device its limit, then 429 {201}; another device on the same network is still answered', async () => {
    const device = { ip: '203.0.113.20', device: 'c2a7f0e4-0b7e-4c1a-9a55-5d3c0c5b1f01' };
    for (let n = 0; n < limit.perDevice.limit; n += 1) expect((await call(t.app, n, device)).statusCode).toBe(200);
    expectTooMany(await call(t.app, 1000, device));
    expect((await call(t.app, 1001, { ...device, device: '0d6f3d1e-5b9a-4f0e-8c7b-2a1e9d4c6b02' })).statusCode).toBe(200);
  });

  it('counts per IP however the Device-UUID changes; another IP is still answered', async () => {
    const ip = '198.51.100.30';
    for (let n = 0; n < limit.perIp.limit; n += 1) {
      expect((await call(t.app, n, { ip, device: `rotating-device-${String(n).padStart(4, '0')}` })).statusCode).toBe(200);
    }
    expectTooMany(await call(t.app, 2000, { ip, device: 'rotating-device-next' }));
    expectTooMany(await call(t.app, 2001, { ip }));
    expect((await call(t.app, 2002, { ip: '198.51.100.31' })).statusCode).toBe(200);
  });
});

it('texts nothing to a phone asked for over the limit', async () => {
  const device = { ip: '203.0.113.40', device: 'f3b1c9d2-7a4e-4b8f-9c1d-0e2f3a4b5c03' };
  for (let n = 0; n < textsLimit.perDevice.limit; n += 1) await requestCode(t.app, 3000 + n, device);
  expectTooMany(await requestCode(t.app, 3999, device));
  expect(await outbox(t.app, phoneNumber(3999))).toEqual([]);
});
