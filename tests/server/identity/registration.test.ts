/**
 * POST /register: every spec §5 rule is enforced by the card API even when the app is bypassed, a
 * malformed body is told apart from a broken rule, and a success creates a working card account in
 * one go (user, account, active virtual card, agreements, unlock code) with the SSN encrypted.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agreementKinds, type RegistrationPayload } from '../../../contract/identity/types.ts';
import { ValidationMessage as M } from '../../../contract/rules.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { issueCompanionToken } from '../../../server/companionTokens.ts';
import { identityCheckSeconds, registrationLostAfterSeconds } from '../../../server/features/identity/registration.ts';
import { sandboxIdentityVerifier } from '../../../server/partners/identity.ts';
import { accounts, agreementAcceptances, cards, mfaTokens, users } from '../../../server/db/schema/index.ts';
import { hashSecret, hashToken, verifySecret } from '../../../server/secrets.ts';
import { unsealDob } from '../../../server/datesOfBirth.ts';
import { decryptSsn, ssnHash } from '../../../server/ssn.ts';
import {
  bearer,
  homeStatus,
  newApplicant,
  register,
  signIn,
  startTestApp,
  type TestApp,
  unlock,
  verifiedApplicant,
  verifiedMfaToken,
} from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function userByEmail(email: string) {
  const [user] = await t.db.select().from(users).where(eq(users.email, email));
  return user;
}

type Change = (payload: RegistrationPayload) => RegistrationPayload;
const withAddress = (change: Partial<RegistrationPayload['addressLegal']>): Change => (payload) => ({
  ...payload,
  addressLegal: { ...payload.addressLegal, ...change },
});
const withField = (change: Partial<RegistrationPayload>): Change => (payload) => ({ ...payload, ...change });

describe('POST /register refuses each broken rule with FAILED_VALIDATION and the field', () => {
  // Each rule breaks alone; the phone is verified, so the rule is the only reason for the answer.
  const cases: [string, Change, Record<string, string>][] = [
    ['an empty first name', withField({ firstName: '  ' }), { firstName: M.firstNameRequired }],
    ['digits in the first name', withField({ firstName: 'R0sa' }), { firstName: M.nameInvalid }],
    ['a 51-letter first name', withField({ firstName: 'R'.repeat(51) }), { firstName: M.tooLong }],
    ['symbols in the middle name', withField({ middleName: 'M.' }), { middleName: M.nameInvalid }],
    ['an empty last name', withField({ lastName: '' }), { lastName: M.lastNameRequired }],
    ['an underscore in the last name', withField({ lastName: 'D_Angelo' }), { lastName: M.nameInvalid }],
    ['a date of birth in ISO order', withField({ dob: '1990-07-04' }), { dob: M.dobInvalid }],
    ['30 February', withField({ dob: '02/30/1990' }), { dob: M.dobNotReal }],
    ['a 17-year-old', withField({ dob: `01/01/${new Date().getFullYear() - 17}` }), { dob: M.dobUnder18 }],
    ['an 8-digit SSN', withField({ ssn: '12345678' }), { ssn: M.ssnInvalid }],
    ['an SSN with area 000', withField({ ssn: '000-12-3456' }), { ssn: M.ssnInvalid }],
    ['an SSN with area 666', withField({ ssn: '666-12-3456' }), { ssn: M.ssnInvalid }],
    ['an ITIN', withField({ ssn: '912-70-1234' }), { ssn: M.ssnItin }],
    ['an empty email', withField({ email: '' }), { email: M.emailRequired }],
    ['an email without a domain', withField({ email: 'rosa@' }), { email: M.emailInvalid }],
    ['an accented email', withField({ email: 'rosá@example.com' }), { email: M.emailInvalid }],
    ['an accented domain in punycode, as Chromium sends it', withField({ email: 'rosa@xn--exmple-qta.com' }), { email: M.emailInvalid }],
    ['an empty street', withAddress({ street1: '' }), { 'addressLegal.street1': M.street1Required }],
    ['a 51-character unit', withAddress({ street2: 'x'.repeat(51) }), { 'addressLegal.street2': M.tooLong }],
    ['an empty city', withAddress({ city: ' ' }), { 'addressLegal.city': M.cityRequired }],
    ['an empty state', withAddress({ state: '' }), { 'addressLegal.state': M.stateRequired }],
    ['DC', withAddress({ state: 'DC' }), { 'addressLegal.state': M.stateInvalid }],
    ['Puerto Rico', withAddress({ state: 'PR' }), { 'addressLegal.state': M.stateInvalid }],
    ['a lower-case state', withAddress({ state: 'ca' }), { 'addressLegal.state': M.stateInvalid }],
    ['an empty ZIP', withAddress({ zip: '' }), { 'addressLegal.zip': M.zipRequired }],
    ['a 4-digit ZIP', withAddress({ zip: '9372' }), { 'addressLegal.zip': M.zipInvalid }],
    ['a 9-digit ZIP without the dash', withAddress({ zip: '937281234' }), { 'addressLegal.zip': M.zipInvalid }],
    ['an empty unlock code', withField({ unlockCode: '' }), { unlockCode: M.unlockCodeRequired }],
    ['a 3-digit unlock code', withField({ unlockCode: '246' }), { unlockCode: M.unlockCodeInvalid }],
    ['an obvious unlock code', withField({ unlockCode: '1234' }), { unlockCode: M.unlockCodeObvious }],
    ['a repeated-digit unlock code', withField({ unlockCode: '7777' }), { unlockCode: M.unlockCodeObvious }],
    [
      'an agreement not accepted',
      withField({ legal: { esign: 'agreed', terms: null, cardholder3: 'agreed' } }),
      { legal: 'legal.required' },
    ],
    ['no agreement accepted', withField({ legal: { esign: null, terms: null, cardholder3: null } }), { legal: 'legal.required' }],
  ];

  it.each(cases)('%s', async (_name, change, fieldErrors) => {
    const applicant = change(await verifiedApplicant(t.app));

    const answer = await register(t.app, applicant);

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors });
    expect(await userByEmail(applicant.email)).toBeUndefined();
  });

  it('names every broken field at once, the address fields dotted', async () => {
    const answer = await register(t.app, {
      ...newApplicant(),
      firstName: '',
      phone: '1592014477',
      ssn: '900-70-3456',
      addressLegal: { street1: '', street2: '', city: '', state: 'XX', zip: '1' },
      legal: { esign: null, terms: null, cardholder3: null },
    });

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      statusCode: StatusCode.FAILED_VALIDATION,
      fieldErrors: {
        firstName: M.firstNameRequired,
        ssn: M.ssnItin,
        phone: M.phoneInvalid,
        'addressLegal.street1': M.street1Required,
        'addressLegal.city': M.cityRequired,
        'addressLegal.state': M.stateInvalid,
        'addressLegal.zip': M.zipInvalid,
        legal: 'legal.required',
      },
    });
  });

  it.each([
    ['an empty phone', '', M.phoneRequired],
    ['a 9-digit phone', '559201447', M.phoneLength],
    ['a phone starting with 1', '1592014477', M.phoneInvalid],
  ])('refuses %s (and does not look at the token then)', async (_name, phone, message) => {
    const answer = await register(t.app, { ...newApplicant(), phone, mfaToken: 'anything' });

    expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: message } });
  });

  describe('the mfaToken (proof of the verified phone), reported on the phone field', () => {
    it('is required', async () => {
      const answer = await register(t.app, newApplicant({ mfaToken: '' }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } });
    });

    it('must be one the server issued', async () => {
      const answer = await register(t.app, newApplicant({ mfaToken: 'made-up-token' }));
      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } });
    });

    it('must be for the phone being registered', async () => {
      const other = newApplicant();
      const mfaToken = await verifiedMfaToken(t.app, other.phone);

      const answer = await register(t.app, newApplicant({ mfaToken }));

      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } });
    });

    it('expires after 30 minutes', async () => {
      const applicant = await verifiedApplicant(t.app);
      const expiresAt = (await t.db.select().from(mfaTokens).where(eq(mfaTokens.tokenHash, hashToken(applicant.mfaToken))))[0]!
        .expiresAt;
      const issuedAt = Date.now();
      expect(expiresAt.getTime() - issuedAt).toBeGreaterThan(29 * 60_000);
      expect(expiresAt.getTime() - issuedAt).toBeLessThanOrEqual(30 * 60_000);
      await t.db
        .update(mfaTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(mfaTokens.tokenHash, hashToken(applicant.mfaToken)));

      const answer = await register(t.app, applicant);

      expect(answer.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } });
    });

    it('is stored only as a hash', async () => {
      const applicant = await verifiedApplicant(t.app);
      const rows = await t.db.select().from(mfaTokens).where(eq(mfaTokens.phone, applicant.phone));
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(applicant.mfaToken);
    });

    it('works once: a second registration with a spent token is refused', async () => {
      const applicant = await verifiedApplicant(t.app);
      expect((await register(t.app, applicant)).status).toBe(200);

      // Another person's details, the same token.
      const again = await register(t.app, { ...newApplicant(), phone: applicant.phone, mfaToken: applicant.mfaToken });

      expect(again.status).toBe(400);
      expect(again.body).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } });
    });

    it('answers the same application sent again (its answer was lost) as the first time, with a new session for the account it opened', async () => {
      const applicant = await verifiedApplicant(t.app);
      const first = await register(t.app, applicant);
      expect(first.status).toBe(200);

      const again = await register(t.app, applicant);

      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ statusCode: StatusCode.SUCCESS, isInternal: false });
      expect(again.body.access).not.toBe(first.body.access);
      const home = await homeStatus(t.app, again.body.access!);
      expect(home.status).toBe(200);
      expect(home.body).toEqual((await homeStatus(t.app, first.body.access!)).body);
      expect(await t.db.select().from(users).where(eq(users.phone, applicant.phone))).toHaveLength(1);
    });

    it('answers a denied application sent again as denied, without asking the identity check again', async () => {
      const applicant = await verifiedApplicant(t.app, { lastName: 'Denied' });
      expect((await register(t.app, applicant)).body).toEqual({ statusCode: 1 });
      const checks = vi.spyOn(sandboxIdentityVerifier, 'verify');
      try {
        const again = await register(t.app, applicant);

        expect(again.status).toBe(403);
        expect(again.body).toEqual({ statusCode: 1 });
        expect(checks).not.toHaveBeenCalled();
      } finally {
        checks.mockRestore();
      }
    });

    it('answers the same application sent while the first is still being answered 409 {5} (the app tries again), then as the first', async () => {
      const applicant = await verifiedApplicant(t.app);
      const check = sandboxIdentityVerifier.verify.bind(sandboxIdentityVerifier);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      // The first is known to be inside the identity check by its call, not by a wait (vi.waitFor's
      // second would fail on a slow machine).
      let checking!: () => void;
      const inCheck = new Promise<void>((resolve) => (checking = resolve));
      const slow = vi.spyOn(sandboxIdentityVerifier, 'verify').mockImplementationOnce(async (person) => {
        checking();
        await held;
        return check(person);
      });
      try {
        const first = register(t.app, applicant);
        await inCheck;

        const meanwhile = await register(t.app, applicant);
        release();

        expect(meanwhile.status).toBe(409);
        expect(meanwhile.body).toEqual({ statusCode: StatusCode.UNEXPECTED_ERROR });
        expect((await first).status).toBe(200);
        const after = await register(t.app, applicant);
        expect(after.status).toBe(200);
        expect(await homeStatus(t.app, after.body.access!)).toMatchObject({ status: 200 });
      } finally {
        release();
        slow.mockRestore();
      }
    });

    /** The identity check held for the next registrations: `entered` when each is in it, `answer` to let it go on. */
    function holdIdentityChecks(count: number) {
      const check = sandboxIdentityVerifier.verify.bind(sandboxIdentityVerifier);
      const held = Array.from({ length: count }, () => {
        let entered!: () => void;
        let answer!: (approved: boolean | Error) => void;
        const inCheck = new Promise<void>((resolve) => (entered = resolve));
        const answered = new Promise<boolean | Error>((resolve) => (answer = resolve));
        return { inCheck, entered, answer, answered };
      });
      let next = 0;
      const spy = vi.spyOn(sandboxIdentityVerifier, 'verify').mockImplementation(async (person) => {
        const hold = held[next++];
        if (!hold) return check(person);
        hold.entered();
        const answer = await hold.answered;
        if (answer instanceof Error) throw answer;
        return check(person);
      });
      return { held, spy };
    }
    const backdateSpend = (mfaToken: string) =>
      t.db
        .update(mfaTokens)
        .set({ usedAt: new Date(Date.now() - (registrationLostAfterSeconds + 5) * 1000) })
        .where(eq(mfaTokens.tokenHash, hashToken(mfaToken)));

    it('runs the same application again when the first was lost with its server (its token spent 3 minutes ago, no outcome): no 409 until the token expires', async () => {
      const applicant = await verifiedApplicant(t.app);
      // The first stands for a server that died in the identity check: it does not answer until the end.
      const { held, spy } = holdIdentityChecks(1);
      try {
        const first = register(t.app, applicant);
        await held[0]!.inCheck;
        expect((await register(t.app, applicant)).status).toBe(409);
        await backdateSpend(applicant.mfaToken);

        const again = await register(t.app, applicant);

        expect(again.status).toBe(200);
        expect(await homeStatus(t.app, again.body.access!)).toMatchObject({ status: 200 });
        // The lost one failing late gives nothing back: the token stays spent by the account it opened.
        held[0]!.answer(new Error('late'));
        expect((await first).status).toBe(500);
        expect((await register(t.app, applicant)).status).toBe(200);
        expect(await t.db.select().from(users).where(eq(users.phone, applicant.phone))).toHaveLength(1);
      } finally {
        held[0]!.answer(new Error('late'));
        spy.mockRestore();
      }
    });

    /**
     * A first run held in the identity check, then thought lost (its spend backdated past
     * registrationLostAfterSeconds), and the same application sent again, held there too.
     */
    async function lostRunThenAgain() {
      const applicant = await verifiedApplicant(t.app);
      const { held, spy } = holdIdentityChecks(2);
      const release = () => {
        held.forEach((hold) => hold.answer(new Error('test over')));
        spy.mockRestore();
      };
      try {
        const first = register(t.app, applicant);
        await held[0]!.inCheck;
        await backdateSpend(applicant.mfaToken);
        const again = register(t.app, applicant);
        await held[1]!.inCheck;
        return { applicant, first, again, held, spy, release };
      } catch (error) {
        release();
        throw error;
      }
    }

    it('gives nothing back when a run thought lost fails while the application runs again: a third waits, with no third check', async () => {
      const { applicant, first, again, held, spy, release } = await lostRunThenAgain();
      try {
        held[0]!.answer(new Error('late'));
        expect((await first).status).toBe(500);
        const third = await register(t.app, applicant);

        expect(third.status).toBe(409);
        expect(spy).toHaveBeenCalledTimes(2);
        held[1]!.answer(true);
        expect((await again).status).toBe(200);
      } finally {
        release();
      }
    });

    it('answers the run again with the account when the run thought lost comes back and opens it first', async () => {
      const { applicant, first, again, held, release } = await lostRunThenAgain();
      try {
        held[0]!.answer(true);
        expect((await first).status).toBe(200);
        held[1]!.answer(true);
        const answer = await again;

        expect(answer.status).toBe(200);
        expect(await homeStatus(t.app, answer.body.access!)).toMatchObject({ status: 200 });
        expect((await register(t.app, applicant)).status).toBe(200);
        expect(await t.db.select().from(users).where(eq(users.phone, applicant.phone))).toHaveLength(1);
      } finally {
        release();
      }
    });

    it('gives up on an identity check that has not answered in a minute, and gives the token back', async () => {
      const applicant = await verifiedApplicant(t.app);
      let checking!: () => void;
      const inCheck = new Promise<void>((resolve) => (checking = resolve));
      const hung = vi.spyOn(sandboxIdentityVerifier, 'verify').mockImplementationOnce(() => {
        checking();
        return new Promise(() => {});
      });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const first = register(t.app, applicant);
        await inCheck;
        vi.advanceTimersByTime(identityCheckSeconds * 1000 - 1);
        expect((await register(t.app, applicant)).status).toBe(409);
        vi.advanceTimersByTime(1);
        vi.useRealTimers();

        expect((await first).status).toBe(500);
        expect((await register(t.app, applicant)).status).toBe(200);
      } finally {
        vi.useRealTimers();
        hung.mockRestore();
      }
    });

    it('does not answer another application with the spent token: another unlock code or a corrected name is "verify your phone again"', async () => {
      const applicant = await verifiedApplicant(t.app);
      expect((await register(t.app, applicant)).status).toBe(200);
      const unverified = { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } };

      expect((await register(t.app, { ...applicant, unlockCode: applicant.unlockCode === '8642' ? '9753' : '8642' })).body).toEqual(unverified);
      expect((await register(t.app, { ...applicant, lastName: `${applicant.lastName}-Cruz` })).body).toEqual(unverified);
    });

    it('does not answer it again once the token has expired, nor for the same phone with another person\'s SSN', async () => {
      const applicant = await verifiedApplicant(t.app);
      expect((await register(t.app, applicant)).status).toBe(200);
      const unverified = { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: 'phone.unverified' } };

      expect((await register(t.app, { ...applicant, ssn: newApplicant().ssn })).body).toEqual(unverified);
      await t.db
        .update(mfaTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(mfaTokens.tokenHash, hashToken(applicant.mfaToken)));
      expect((await register(t.app, applicant)).body).toEqual(unverified);
    });
  });
});

describe('POST /register refuses a malformed body with INVALID_PARAMETERS', () => {
  const cases: [string, (payload: RegistrationPayload) => unknown][] = [
    ['an unknown key', (payload) => ({ ...payload, isInternal: true })],
    ['an unknown key in the address', (payload) => ({ ...payload, addressLegal: { ...payload.addressLegal, country: 'US' } })],
    ['an unknown agreement', (payload) => ({ ...payload, legal: { ...payload.legal, privacy: 'agreed' } })],
    ['a missing key', ({ middleName: _middleName, ...payload }) => payload],
    ['a missing address', ({ addressLegal: _address, ...payload }) => payload],
    ['a missing providersUuid', ({ providersUuid: _uuid, ...payload }) => payload],
    ['a number as SSN', (payload) => ({ ...payload, ssn: 123456789 })],
    ['null as first name', (payload) => ({ ...payload, firstName: null })],
    ['an agreement value other than agreed or null', (payload) => ({ ...payload, legal: { ...payload.legal, esign: true } })],
    ['an address as a string', (payload) => ({ ...payload, addressLegal: '1 Main St' })],
    ['a providersUuid with spaces', (payload) => ({ ...payload, providersUuid: 'not a uuid' })],
    ['a JSON array', (payload) => [payload]],
    ['JSON null', () => null],
    ['a body that is not JSON', (payload) => JSON.stringify(payload).slice(0, -2)],
  ];

  it.each(cases)('%s', async (_name, change) => {
    const applicant = await verifiedApplicant(t.app);
    const body = change(applicant);

    const answer = await register(t.app, typeof body === 'string' ? body : JSON.stringify(body));

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect(await userByEmail(applicant.email)).toBeUndefined();
  });

  it('an EBT-Account-ID header that is not an id', async () => {
    const applicant = await verifiedApplicant(t.app);
    const answer = await register(t.app, applicant, { 'ebt-account-id': 'EBT 4417; drop table' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });
});

describe('POST /register with every rule met', () => {
  let applicant: RegistrationPayload;
  let answer: Awaited<ReturnType<typeof register>>;

  beforeAll(async () => {
    applicant = await verifiedApplicant(t.app, {
      firstName: '  Rosa ',
      ssn: '287-65-4321',
      phone: '(559) 555-0123'.replace('555', '314'),
      email: ' Rosa.Success@Example.com ',
      addressLegal: { street1: ' 2231 E Shields Ave ', street2: 'Apt 4', city: 'Fresno', state: 'CA', zip: '93726-1234' },
      providersUuid: '0d9c6c1e-0000-4000-8000-00000000a11c',
    });
    const companionToken = await issueCompanionToken(
      { uuid: applicant.providersUuid!, email: null, ebtAccountId: 'EBT-5500-1234' },
      t.config.companionTokenSecret,
    );
    answer = await register(t.app, applicant, {
      'ebt-account-id': 'ebt-5500-1234',
      'companion-authorization': `Bearer ${companionToken}`,
    });
  });

  it('answers SUCCESS with a card session', () => {
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      statusCode: StatusCode.SUCCESS,
      access: expect.any(String),
      refresh: expect.any(String),
      isInternal: false,
    });
  });

  it("opens a home with one active virtual card and an empty account", async () => {
    const home = await homeStatus(t.app, answer.body.access!);
    expect(home.status).toBe(200);
    expect(home.body.accountOverview.cards).toEqual([
      expect.objectContaining({ type: 'VIRTUAL', status: 'ACTIVE', isActive: true, isPending: false, frozen: false }),
    ]);
    expect(home.body.virtualCard).toEqual({ id: home.body.accountOverview.cards[0]!.id });
    expect(home.body.accountOverview.balance).toBe(0);
    expect(home.body.accountOverview.transactions).toEqual([]);
    expect(home.body.prn).toMatch(/^4000\d{8}$/);
    expect(home.body.pendingCard).toBeNull();
    expect(home.body.registrationWave).toBeNull();
  });

  it('stores the details normalised: trimmed names and email, phone digits, ZIP+4', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(answer.body.access!) });
    expect(response.json().user).toMatchObject({
      fullName: "Rosa María D'Angelo",
      email: 'Rosa.Success@Example.com',
      phone: '5593140123',
      address: { street1: '2231 E Shields Ave', street2: 'Apt 4', city: 'Fresno', state: 'CA', zip: '93726-1234' },
      isInternal: false,
    });
    const user = (await userByEmail('Rosa.Success@Example.com'))!;
    expect(unsealDob(user.dob!, t.config.ssnEncryptionKey, user.id)).toBe('07/04/1990');
    expect(user.ebtAccountId).toBe('EBT-5500-1234');
    expect(user.providersUuid).toBe(applicant.providersUuid);
  });

  it('stores the SSN encrypted: the column never holds the digits, and only the key and user id open it', async () => {
    const user = (await userByEmail('Rosa.Success@Example.com'))!;
    expect(user.ssnEncrypted).toMatch(/^aesgcm\$[\w-]+\$[\w-]+\$[\w-]+$/);
    for (const column of [user.ssnEncrypted!, user.ssnHash!]) {
      expect(column).not.toContain('287654321');
      expect(column).not.toContain('4321');
      expect(column).not.toContain('287-65');
    }
    expect(decryptSsn(user.ssnEncrypted!, t.config.ssnEncryptionKey, user.id)).toBe('287654321');
    expect(() => decryptSsn(user.ssnEncrypted!, t.config.ssnEncryptionKey, crypto.randomUUID())).toThrow();
    expect(() => decryptSsn(user.ssnEncrypted!, Buffer.alloc(32, 1), user.id)).toThrow();
    expect(user.ssnHash).toBe(ssnHash('287654321', t.config.ssnHashKey));
  });

  it('stores the date of birth sealed: the column never holds the date, and only the key and user id open it', async () => {
    const user = (await userByEmail('Rosa.Success@Example.com'))!;
    expect(user.dob).toMatch(/^aesgcm\$[\w-]+\$[\w-]+\$[\w-]+$/);
    expect(user.dob).not.toContain('1990');
    expect(unsealDob(user.dob!, t.config.ssnEncryptionKey, user.id)).toBe('07/04/1990');
    expect(() => unsealDob(user.dob!, t.config.ssnEncryptionKey, crypto.randomUUID())).toThrow();
    expect(() => unsealDob(user.dob!, Buffer.alloc(32, 1), user.id)).toThrow();
    // Sealed for its own column: it does not open as an SSN, nor the SSN as a date of birth.
    expect(() => decryptSsn(user.dob!, t.config.ssnEncryptionKey, user.id)).toThrow();
    expect(() => unsealDob(user.ssnEncrypted!, t.config.ssnEncryptionKey, user.id)).toThrow();
  });

  it('hashes the unlock code, which then unlocks the session', async () => {
    const user = (await userByEmail('Rosa.Success@Example.com'))!;
    expect(user.unlockCodeHash).toMatch(/^scrypt\$/);
    expect(await verifySecret('2468', user.unlockCodeHash!)).toBe(true);
    expect((await unlock(t.app, answer.body.refresh!, '2468')).body.statusCode).toBe(StatusCode.SUCCESS);
  });

  it('records the three agreements', async () => {
    const user = (await userByEmail('Rosa.Success@Example.com'))!;
    const rows = await t.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, user.id));
    expect(rows.map((row) => row.kind).sort()).toEqual([...agreementKinds].sort());
    for (const agreement of agreementKinds) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/accepted-agreement?agreement=${agreement}`,
        headers: bearer(answer.body.access!),
      });
      expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS, agreed: true, version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    }
  });

  it('links the companion user: providers sign-in opens this account', async () => {
    const companionToken = await issueCompanionToken({ uuid: applicant.providersUuid!, email: null }, t.config.companionTokenSecret);
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/providers/sign-in', headers: bearer(companionToken) });
    expect(response.statusCode).toBe(200);
    const home = await homeStatus(t.app, response.json().access);
    expect(home.body.prn).toBe((await homeStatus(t.app, answer.body.access!)).body.prn);
  });

  it('has no password until one is set (registration carries none); then email and password sign in', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sign-in',
      payload: { email: 'rosa.success@example.com', password: 'anything-at-all' },
    });
    expect(refused.statusCode).toBe(401);

    // What the reset-password flow (email + SSN + new password) will store.
    await t.db.update(users).set({ passwordHash: await hashSecret('Rosa-Card-2026') }).where(eq(users.email, 'Rosa.Success@Example.com'));

    const session = await signIn(t.app, { email: 'rosa.success@example.com', password: 'Rosa-Card-2026' });
    const home = await homeStatus(t.app, session.access);
    expect(home.body.accountOverview.cards.map((card) => card.type)).toEqual(['VIRTUAL']);
  });

  it('creates exactly one user, one account and one card', async () => {
    const user = (await userByEmail('Rosa.Success@Example.com'))!;
    const accountRows = await t.db.select().from(accounts).where(eq(accounts.userId, user.id));
    expect(accountRows).toHaveLength(1);
    expect(await t.db.select().from(cards).where(eq(cards.accountId, accountRows[0]!.id))).toHaveLength(1);
  });
});

describe('POST /register details', () => {
  it.each([
    ['93728', '93728'],
    ['93728-', '93728'],
    ['93728-0042', '93728-0042'],
  ])('accepts the ZIP %j and stores %j', async (zip, stored) => {
    const applicant = await verifiedApplicant(t.app);
    const answer = await register(t.app, { ...applicant, addressLegal: { ...applicant.addressLegal, zip } });
    expect(answer.status).toBe(200);
    expect((await userByEmail(applicant.email))!.zip).toBe(stored);
  });

  it('accepts names with accents, apostrophes, hyphens and spaces', async () => {
    const applicant = await verifiedApplicant(t.app, { firstName: 'Zoë-Anne', middleName: '', lastName: 'Nguyễn O’Neil de la Cruz' });
    expect((await register(t.app, applicant)).status).toBe(200);
    expect((await userByEmail(applicant.email))!.middleName).toBeNull();
  });

  it('takes the registration wave from the profile when it names a known wave', async () => {
    const applicant = await verifiedApplicant(t.app, { profile: JSON.stringify({ registrationWave: 'snapback_test_500', firstName: 'Rosa' }) });
    const answer = await register(t.app, applicant);
    expect((await homeStatus(t.app, answer.body.access!)).body.registrationWave).toBe('snapback_test_500');
  });

  it.each([
    ['an unknown wave', JSON.stringify({ registrationWave: 'everything_free' })],
    ['a profile without a wave', JSON.stringify({ firstName: 'Rosa' })],
    ['a profile that is not JSON', '{registrationWave:'],
  ])('registers with no wave for %s', async (_name, profile) => {
    const answer = await register(t.app, await verifiedApplicant(t.app, { profile }));
    expect(answer.status).toBe(200);
    expect((await homeStatus(t.app, answer.body.access!)).body.registrationWave).toBeNull();
  });
});

/** An applicant of their own SSN, phone and street, with a phone proven, and the companion user named (or none). */
async function applicantWith(ssn: string, phone: string, street1: string, providersUuid: string | null = null) {
  return verifiedApplicant(t.app, {
    ssn,
    phone,
    email: `link-${ssn}@example.com`,
    addressLegal: { street1, street2: '', city: 'Fresno', state: 'CA', zip: '93726' },
    providersUuid,
  });
}

describe('POST /register linking a companion user', () => {
  const uuid = '0d9c6c1e-0000-4000-8000-0000000b0b0b';
  const refusal = { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { providersUuid: 'providersUuid.unverified' } };

  it("refuses a providersUuid without the companion app's token for it, and opens no account", async () => {
    const applicant = await applicantWith('287-65-1111', '(559) 314-1111', '11 E Shields Ave', uuid);
    const missing = await register(t.app, applicant);
    expect(missing).toEqual({ status: 400, body: refusal });

    const otherUser = await issueCompanionToken({ uuid: crypto.randomUUID(), email: null }, t.config.companionTokenSecret);
    const mismatched = await register(t.app, applicant, { 'companion-authorization': `Bearer ${otherUser}` });
    expect(mismatched).toEqual({ status: 400, body: refusal });

    const forged = await issueCompanionToken({ uuid, email: null }, new TextEncoder().encode('x'.repeat(40)));
    const forgedAnswer = await register(t.app, applicant, { 'companion-authorization': `Bearer ${forged}` });
    expect(forgedAnswer).toEqual({ status: 400, body: refusal });
    expect(await userByEmail(applicant.email)).toBeUndefined();
  });
});

describe('POST /register links an EBT account only on the companion app\'s word', () => {
  it("opens the account unlinked when no companion token names the EBT-Account-ID, so a stranger's id is not taken from its owner", async () => {
    const stranger = await applicantWith('287-65-2221', '(559) 314-2221', '21 E Shields Ave');
    const otherAccount = await issueCompanionToken({ uuid: crypto.randomUUID(), email: null, ebtAccountId: 'EBT-7000-0001' }, t.config.companionTokenSecret);
    const forged = await issueCompanionToken({ uuid: crypto.randomUUID(), email: null, ebtAccountId: 'EBT-7000-0002' }, new TextEncoder().encode('x'.repeat(40)));
    const tries: Record<string, string>[] = [
      { 'ebt-account-id': 'EBT-7000-0002' },
      { 'ebt-account-id': 'EBT-7000-0002', 'companion-authorization': `Bearer ${otherAccount}` },
      { 'ebt-account-id': 'EBT-7000-0002', 'companion-authorization': `Bearer ${forged}` },
    ];
    for (const [i, headers] of tries.entries()) {
      const applicant = i === 0 ? stranger : await applicantWith(`287-65-222${2 + i}`, `(559) 314-222${2 + i}`, `2${2 + i} E Shields Ave`);
      expect((await register(t.app, applicant, headers)).status).toBe(200);
      expect((await userByEmail(applicant.email))!.ebtAccountId).toBeNull();
    }

    // The owner, whose companion app names the account, still opens theirs linked.
    const owner = await applicantWith('287-65-2229', '(559) 314-2229', '29 E Shields Ave');
    const ownersWord = await issueCompanionToken({ uuid: crypto.randomUUID(), email: null, ebtAccountId: 'ebt-7000-0002' }, t.config.companionTokenSecret);
    const answer = await register(t.app, owner, { 'ebt-account-id': 'EBT-7000-0002', 'companion-authorization': `Bearer ${ownersWord}` });
    expect(answer.status).toBe(200);
    expect((await userByEmail(owner.email))!.ebtAccountId).toBe('EBT-7000-0002');
  });
});
