/**
 * Every sandbox partner outcome of registration (docs/sandbox.md "Registration partners"): each
 * address code 300-307 (POST /verify-address and again inside POST /register), identity denied, and
 * CIP taken for each identity kind the demo cardholder already holds.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Address } from '../../../contract/shared/address.ts';
import type { RegistrationPayload } from '../../../contract/identity/types.ts';
import { ValidationMessage as M } from '../../../contract/rules.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { issueCompanionToken } from '../../../server/companionTokens.ts';
import { addressCheckLimit } from '../../../server/attemptLimits.ts';
import { users } from '../../../server/db/schema/index.ts';
import { sandboxIdentityVerifier } from '../../../server/partners/identity.ts';
import {
  demoCardholder,
  postFrom,
  productionEnv,
  register,
  requestVerification,
  startTestApp,
  type TestApp,
  verifiedApplicant,
} from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const home: Address = { street1: '845 E Dakota Ave', street2: '', city: 'Fresno', state: 'CA', zip: '93704' };

function verifyAddress(address: Partial<Address>, type: { addressType?: unknown } = { addressType: 'legal' }) {
  return t.app.inject({ method: 'POST', url: '/api/v1/verify-address', payload: { ...home, ...address, ...type } });
}

async function usersCount(): Promise<number> {
  return (await t.db.select({ id: users.id }).from(users)).length;
}

const addressCases: [string, Partial<Address>, number][] = [
  ['"Invalid" in the street', { street1: '12 Invalid Rd' }, StatusCode.ADDRESS_INVALID],
  ['"Unit Wrong" in the unit', { street2: 'Unit Wrong' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['unit 999', { street2: '999' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['"Apartments" without a unit', { street1: '400 Palm Apartments' }, StatusCode.ADDRESS_UNIT_REQUIRED],
  ['"Office" in the street', { street1: '1 Office Park Dr' }, StatusCode.ADDRESS_COMMERCIAL],
  ['"Suite" in the unit', { street2: 'suite 200' }, StatusCode.ADDRESS_COMMERCIAL],
  ['"PO Box"', { street1: 'PO Box 1234' }, StatusCode.ADDRESS_PO_BOX],
  ['"P.O. Box", any case', { street1: 'p.o. box 77' }, StatusCode.ADDRESS_PO_BOX],
  ['"Vacant"', { street1: '9 Vacant Lot Ln' }, StatusCode.ADDRESS_VACANT],
  ['"General Delivery"', { street1: 'GENERAL DELIVERY' }, StatusCode.ADDRESS_GENERAL_DELIVERY],
  ['"Mail Drop"', { street1: '77 Mail Drop Ctr' }, StatusCode.ADDRESS_MAIL_DROP],
];

describe('POST /verify-address', () => {
  it('answers SUCCESS for a residential address', async () => {
    const response = await verifyAddress({});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });

  it('answers SUCCESS for an apartment building with a unit', async () => {
    expect((await verifyAddress({ street1: '400 Palm Apartments', street2: 'Apt 3' })).json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });

  it.each(addressCases)('answers the code for %s, with the opt-out on 303-307 only', async (_name, address, statusCode) => {
    const response = await verifyAddress(address);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(statusCode >= 303 ? { statusCode, optOutAllowed: true } : { statusCode });
  });

  it('covers every address code 300-307', () => {
    expect(new Set(addressCases.map(([, , code]) => code))).toEqual(new Set([300, 301, 302, 303, 304, 305, 306, 307]));
  });

  it.each([
    ['DC', { state: 'DC' }, { state: M.stateInvalid }],
    ['Guam', { state: 'GU' }, { state: M.stateInvalid }],
    ['a 6-digit ZIP', { zip: '937041' }, { zip: M.zipInvalid }],
    ['no street', { street1: '' }, { street1: M.street1Required }],
    ['no city', { city: '' }, { city: M.cityRequired }],
  ])('answers FAILED_VALIDATION for %s', async (_name, address, fieldErrors) => {
    const response = await verifyAddress(address);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors });
  });

  it.each([
    ['another address type', { addressType: 'mailing' }],
    ['no address type', {}],
    ['an unknown key', { addressType: 'legal', country: 'US' }],
  ])('answers INVALID_PARAMETERS for %s', async (_name, type) => {
    const response = await verifyAddress({}, type);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });
});

/** What no address label prints, refused whatever the vendor (a real one too) would say. */
const unprintableCases: [string, Partial<Address>, number][] = [
  ['a line break in the street', { street1: '4101 Main St\nLine 2' }, StatusCode.ADDRESS_INVALID],
  ['a bidi override in the street (reorders what is shown)', { street1: '4101 Main \u202eSt' }, StatusCode.ADDRESS_INVALID],
  ['an emoji in the street', { street1: '4101 Main St 🙂' }, StatusCode.ADDRESS_INVALID],
  ['a bell in the city', { city: 'Fres\u0007no' }, StatusCode.ADDRESS_INVALID],
  ['a zero-width space in the city', { city: 'Fres\u200bno' }, StatusCode.ADDRESS_INVALID],
  ['a bell as the whole unit', { street2: '\u0007' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['a tab in the unit', { street2: 'Apt\t3' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['a Hangul filler (drawn as nothing) as the whole unit', { street2: '\u3164' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['a halfwidth Hangul filler as the whole unit', { street2: '\uffa0' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['a blank braille pattern as the whole unit', { street2: '\u2800' }, StatusCode.ADDRESS_UNIT_INCORRECT],
  ['a combining grapheme joiner inside the street', { street1: '845 E Dak\u034fota Ave' }, StatusCode.ADDRESS_INVALID],
  ['a variation selector in the city', { city: 'Fresno\ufe0f' }, StatusCode.ADDRESS_INVALID],
  ['a flag (regional indicators) in the street', { street1: '845 E Dakota Ave 🇺🇸' }, StatusCode.ADDRESS_INVALID],
  ['a skin tone alone in the city', { city: 'Fresno🏽' }, StatusCode.ADDRESS_INVALID],
  ['a keycap in the unit', { street2: '3\ufe0f\u20e3' }, StatusCode.ADDRESS_UNIT_INCORRECT],
];

describe('POST /verify-address: characters no address label prints', () => {
  it.each(unprintableCases)('answers the code for %s', async (_name, address, statusCode) => {
    const response = await verifyAddress(address);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode });
  });

  it('takes the letters people write: accents, ñ, and the punctuation of Publication 28', async () => {
    const response = await verifyAddress({ street1: "1200 Calle Niño #4-B, O'Neil Ave.", city: 'San José' });
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });
});

describe('POST /register checks the address again', () => {
  it.each([...addressCases, ...unprintableCases])('refuses %s', async (_name, address, statusCode) => {
    const applicant = await verifiedApplicant(t.app);
    const before = await usersCount();

    const answer = await register(t.app, { ...applicant, addressLegal: { ...applicant.addressLegal, ...address } });

    expect(answer.status).toBe(400);
    const field = statusCode === 301 || statusCode === 302 ? 'addressLegal.street2' : 'addressLegal';
    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { [field]: `address.${statusCode}` } });
    expect(await usersCount()).toBe(before);
  });
});

describe('POST /register: identity verification', () => {
  it.each(['Denied', 'DENIED', ' denied '])('answers APPLICATION_DENIED (403 {1}) for the last name %j', async (lastName) => {
    const applicant = await verifiedApplicant(t.app, { lastName });
    const before = await usersCount();

    const answer = await register(t.app, applicant);

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ statusCode: 1 });
    expect(await usersCount()).toBe(before);
  });

  it('makes one identity check per proven phone: the mfaToken is spent by it, also when applications come at once', async () => {
    const applicant = await verifiedApplicant(t.app, { lastName: 'Denied' });
    const unverified = { status: 400, body: { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } } };

    const checks = vi.spyOn(sandboxIdentityVerifier, 'verify');
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => register(t.app, applicant)));

      expect(checks).toHaveBeenCalledTimes(1);
      // The others are the same application sent again: answered as the first (denied), or 409 {5}
      // while it is still being answered (the app tries again).
      expect(answers.filter((answer) => answer.status === 403).length).toBeGreaterThan(0);
      for (const answer of answers) {
        expect([{ status: 403, body: { statusCode: 1 } }, { status: 409, body: { statusCode: StatusCode.UNEXPECTED_ERROR } }]).toContainEqual(answer);
      }
    } finally {
      checks.mockRestore();
    }
    // Another guess with the same token (its SSN, or another name): refused before any check.
    expect(await register(t.app, { ...applicant, lastName: 'Lopez', ssn: '287-65-4400' })).toEqual(unverified);
  });

  it("gives the mfaToken back when the identity check itself fails, so the applicant's retry is checked", async () => {
    const applicant = await verifiedApplicant(t.app, { lastName: 'Navarro' });
    const down = vi.spyOn(sandboxIdentityVerifier, 'verify').mockRejectedValueOnce(new Error('identity partner unavailable'));
    try {
      expect((await register(t.app, applicant)).status).toBe(500);
    } finally {
      down.mockRestore();
    }
    expect((await register(t.app, applicant)).status).toBe(200);
  });

  it('counts toward the client\'s address checks, as it checks the address with the paid partner again', async () => {
    const client = { ip: '10.20.30.40', device: 'address-checker-01' };
    const applicant = await verifiedApplicant(t.app);
    for (let i = 0; i < addressCheckLimit.perDevice.limit; i += 1) {
      expect((await postFrom(t.app, '/verify-address', { ...applicant.addressLegal, addressType: 'legal' }, client)).statusCode).toBe(200);
    }
    const answer = await postFrom(t.app, '/register', applicant, client);
    expect(answer.statusCode).toBe(429);
    expect(answer.json()).toEqual({ statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: expect.any(Number) });
  });

  it('approves "Denise"', async () => {
    expect((await register(t.app, await verifiedApplicant(t.app, { lastName: 'Denise' }))).status).toBe(200);
  });
});

describe('POST /register: CIP taken (403 {2}) when the demo cardholder already holds', () => {
  const demoAddress: Address = { ...demoCardholder.address };
  let demoCompanionToken = '';
  let ebtCompanionToken = '';
  beforeAll(async () => {
    demoCompanionToken = await issueCompanionToken({ uuid: demoCardholder.providersUuid, email: null }, t.config.companionTokenSecret);
    ebtCompanionToken = await issueCompanionToken({ uuid: crypto.randomUUID(), email: null, ebtAccountId: 'EBT-4417-2209' }, t.config.companionTokenSecret);
  });
  const cases: [string, Partial<RegistrationPayload>, Record<string, string>][] = [
    ['her SSN', { ssn: demoCardholder.ssn }, {}],
    ['her SSN without dashes', { ssn: '123456789' }, {}],
    ['her email, in other case', { email: 'Demo@Providers.TEST' }, {}],
    ['her phone', { phone: '(559) 201-4477' }, {}],
    ['her address', { addressLegal: demoAddress }, {}],
    [
      'her address written differently',
      { addressLegal: { street1: '1420 n. blackstone ave.', street2: 'APT #12', city: 'Fresno', state: 'CA', zip: '93703-4410' } },
      {},
    ],
    [
      'her EBT account id (EBT-Account-ID header, named by the companion token)',
      {},
      {
        'ebt-account-id': 'ebt-4417-2209',
        get 'companion-authorization'() {
          return `Bearer ${ebtCompanionToken}`;
        },
      },
    ],
    [
      'her companion user (providersUuid, proven with its companion token)',
      { providersUuid: demoCardholder.providersUuid },
      // Read when the test runs, after beforeAll has issued the token.
      {
        get 'companion-authorization'() {
          return `Bearer ${demoCompanionToken}`;
        },
      },
    ],
  ];

  it.each(cases)('%s', async (_name, overrides, headers) => {
    const applicant = await verifiedApplicant(t.app, overrides);
    const before = await usersCount();

    const answer = await register(t.app, applicant, headers);

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ statusCode: 2 });
    expect(await usersCount()).toBe(before);
  });

  it('also when the first of two registrations with one SSN has just succeeded', async () => {
    const first = await verifiedApplicant(t.app);
    expect((await register(t.app, first)).status).toBe(200);

    const second = await verifiedApplicant(t.app, { ssn: first.ssn.replace(/-/g, '') });
    const answer = await register(t.app, second);

    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ statusCode: 2 });
  });

  it('does not spend the mfaToken, so a corrected application can go on', async () => {
    const applicant = await verifiedApplicant(t.app, { ssn: demoCardholder.ssn });
    expect((await register(t.app, applicant)).status).toBe(403);

    const corrected = await register(t.app, { ...applicant, ssn: '234-56-7891' });

    expect(corrected.status).toBe(200);
  });
});

describe('outside sandbox mode', () => {
  let production: TestApp;

  beforeAll(async () => {
    production = await startTestApp({ env: productionEnv });
  });
  afterAll(async () => {
    await production?.close();
  });

  it('has no outbox', async () => {
    const response = await production.app.inject({ method: 'GET', url: '/sandbox/outbox' });
    expect(response.statusCode).toBe(404);
  });

  it('texts nothing until a real SMS gateway is configured (MFA_ERROR)', async () => {
    const response = await production.app.inject({ method: 'POST', url: '/api/v1/request-verification', payload: { phone: '5593334444' } });
    expect(response.json()).toEqual({ statusCode: StatusCode.MFA_ERROR });
  });

  it('refuses the demo SSN too: the seed used the production keys', async () => {
    const [demo] = await production.db.select().from(users).where(eq(users.email, demoCardholder.email));
    const { ssnHash } = await import('../../../server/ssn.ts');
    expect(demo!.ssnHash).toBe(ssnHash(demoCardholder.ssn, production.config.ssnHashKey));
    expect(demo!.ssnHash).not.toBe(ssnHash(demoCardholder.ssn, t.config.ssnHashKey));
  });

  it('needs both SSN keys, 32 bytes each and different', async () => {
    const { readConfig } = await import('../../../server/config.ts');
    const { SSN_ENCRYPTION_KEY: _key, ...withoutEncryptionKey } = productionEnv;
    const { SSN_HASH_KEY: _hashKey, ...withoutHashKey } = productionEnv;
    expect(() => readConfig({ ...withoutEncryptionKey, WEB_ROOT: '' })).toThrow(/SSN_ENCRYPTION_KEY/);
    expect(() => readConfig({ ...withoutHashKey, WEB_ROOT: '' })).toThrow(/SSN_HASH_KEY/);
    expect(() => readConfig({ ...productionEnv, SSN_HASH_KEY: Buffer.alloc(16).toString('base64'), WEB_ROOT: '' })).toThrow(/SSN_HASH_KEY/);
    expect(() => readConfig({ ...productionEnv, SSN_HASH_KEY: productionEnv.SSN_ENCRYPTION_KEY, WEB_ROOT: '' })).toThrow(/differ/);
  });
});

it('request-verification is unaffected by earlier tests on other phones (control)', async () => {
  expect((await requestVerification(t.app, '5597776655')).json()).toEqual({ statusCode: StatusCode.SUCCESS });
});
