/**
 * The card API applies the very rules the forms run (contract/rules.ts, docs/rules.md): a client that
 * skips its own checks gets the same verdict. Unit cases from the standards are in tests/unit/rules.test.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationMessage as M } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { users } from '../../server/db/schema/index.ts';
import {
  demoCardholder,
  mfaCardholder,
  newApplicant,
  post,
  resetMfaToken,
  register,
  requestVerification,
  signInWith,
  startTestApp,
  type TestApp,
  verifiedApplicant,
  verifyPhone,
} from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('phone numbers (North American Numbering Plan)', () => {
  it.each([
    ['an N11 area code', '9112014477'],
    ['an N11 exchange', '5594114477'],
    ['an exchange starting with 1', '5591014477'],
  ])('refuses %s: 400 {4, phone.invalid} at POST /register and /phone-number-in-use, 202 at /request-verification', async (_name, phone) => {
    const registered = await register(t.app, { ...newApplicant(), phone, mfaToken: 'anything' });
    expect(registered).toEqual({ status: 400, body: { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: M.phoneInvalid } } });

    const inUse = await post(t.app, '/phone-number-in-use', { phone });
    expect(inUse).toMatchObject({ status: 400, body: { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { phone: M.phoneInvalid } } });

    expect((await requestVerification(t.app, phone)).json()).toEqual({ statusCode: StatusCode.INVALID_PHONE_NUMBER });
  });
});

describe('email addresses (RFC 5321, RFC 5322)', () => {
  it("accepts every atext character in the local part: an unknown address is looked up (404), not refused (400)", async () => {
    const answer = await post(t.app, '/verify/email', { email: "!#$%&'*+-/=?^_`{|}~@example.com" });
    expect(answer).toMatchObject({ status: 404, body: { statusCode: StatusCode.NOT_ALLOWED } });
  });

  // Spec §5's one email message for each, the too-long address too.
  it.each([
    ['a doubled dot', 'ana..maria@example.com'],
    ['a 65-octet local part', `${'a'.repeat(65)}@example.com`],
    ['a label ending with a hyphen', 'ana@example-.com'],
    ['a 255-octet address', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`],
  ])('refuses %s with 400 {4, email.invalid}', async (_name, email) => {
    const answer = await post(t.app, '/verify/email', { email });
    expect(answer).toMatchObject({ status: 400, body: { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { email: M.emailInvalid } } });
  });
});

describe('passwords (NIST SP 800-63B: code points, at least 64)', () => {
  // 100 code points, 200 UTF-16 units: over the old UTF-16 limit of 128, within 128 code points.
  // 92 different pictographs (U+1F300 …), not one repeated: that is refused as too easy to guess.
  const passphrase = `${Array.from({ length: 92 }, (_, index) => String.fromCodePoint(0x1f300 + ((index * 37) % 700))).join('')}Key-2026`;

  it('takes a 100-character passphrase of astral characters at /change-password, and signs in with it', async () => {
    expect([...passphrase]).toHaveLength(100);
    const mfaToken = await resetMfaToken(t.app, demoCardholder);
    const changed = await post(t.app, '/change-password', { email: demoCardholder.email, ssn: demoCardholder.ssn, password: passphrase, mfaToken });
    expect(changed).toMatchObject({ status: 200, body: { statusCode: StatusCode.SUCCESS } });

    expect((await signInWith(t.app, { email: demoCardholder.email, password: passphrase })).status).toBe(200);
  });

  it('refuses 129 code points with 400 {4, tooLong}', async () => {
    const answer = await post(t.app, '/change-password', {
      email: demoCardholder.email,
      ssn: demoCardholder.ssn,
      password: '\u{1F511}'.repeat(129),
      mfaToken: 'checked-after-the-rules',
    });
    expect(answer).toMatchObject({ status: 400, body: { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { password: M.tooLong } } });
  });
});

describe('names (Unicode NFKC)', () => {
  it('registers a decomposed accent as its letter and stores the composed name', async () => {
    const applicant = await verifiedApplicant(t.app, { firstName: 'Jose\u0301', lastName: 'Mu\u0308ller' });

    const answer = await register(t.app, applicant);

    expect(answer.status).toBe(200);
    const [user] = await t.db.select().from(users).where(eq(users.email, applicant.email));
    expect(user).toMatchObject({ firstName: 'José', lastName: 'Müller' });
  });

  it('stores look-alike letters (mathematical, full-width) as the plain letters they stand for', async () => {
    const applicant = await verifiedApplicant(t.app, {
      firstName: '\u{1D510}\u{1D51E}\u{1D52F}\u{1D526}\u{1D51E}', // 𝔐𝔞𝔯𝔦𝔞
      middleName: '\uFF2D\uFF41\uFF52\uFF49\uFF41', // Ｍａｒｉａ
      lastName: '\uFF2C\uFF4F\uFF50\uFF45\uFF5A', // Ｌｏｐｅｚ
    });

    const answer = await register(t.app, applicant);

    expect(answer.status).toBe(200);
    const [user] = await t.db.select().from(users).where(eq(users.email, applicant.email));
    expect(user).toMatchObject({ firstName: 'Maria', middleName: 'Maria', lastName: 'Lopez' });
  });

  it('still registers names whose letters take combining marks (Devanagari, Tamil), as typed', async () => {
    const applicant = await verifiedApplicant(t.app, { firstName: 'अनिल', lastName: 'தமிழ்' });

    const answer = await register(t.app, applicant);

    expect(answer.status).toBe(200);
    const [user] = await t.db.select().from(users).where(eq(users.email, applicant.email));
    expect(user).toMatchObject({ firstName: 'अनिल', lastName: 'தமிழ்' });
  });
});

describe('texted codes (6 digits, one rule)', () => {
  it.each(['12345', '1234567', '１２３４５６'])('answers the code %j with 400 {2} at /verify-phone and /sign-in', async (code) => {
    const phone = newApplicant().phone;
    const verified = await verifyPhone(t.app, phone, code);
    expect(verified.statusCode).toBe(400);
    expect(verified.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });

    const signedIn = await signInWith(t.app, { email: mfaCardholder.email, password: mfaCardholder.password, code });
    expect(signedIn).toEqual({ status: 400, body: { statusCode: StatusCode.INVALID_PARAMETERS } });
  });
});
