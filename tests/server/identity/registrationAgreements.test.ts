/** Calls with an access token beside registration: accept-agreement, accepted-agreement, set-unlock-code (with the current code). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agreementKinds, agreementVersions } from '../../../contract/identity/types.ts';
import { ValidationMessage as M } from '../../../contract/rules.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { agreementAcceptances, users } from '../../../server/db/schema/index.ts';
import { bearer, demoCardholder, demoUser, signIn, startTestApp, type TestApp, unlock } from '../helpers.ts';

let t: TestApp;
let access: string;
let userId: string;

beforeAll(async () => {
  t = await startTestApp();
  userId = (await demoUser(t.db)).id;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  ({ access } = await signIn(t.app));
});

const acceptedAgreement = async (agreement: string, token = access) =>
  t.app.inject({ method: 'GET', url: `/api/v1/accepted-agreement?agreement=${agreement}`, headers: bearer(token) });
const acceptAgreement = async (payload: unknown, token = access) =>
  t.app.inject({ method: 'POST', url: '/api/v1/accept-agreement', headers: bearer(token), payload: payload as object });

describe('GET /accepted-agreement and POST /accept-agreement', () => {
  it('knows the seeded demo cardholder accepted all three', async () => {
    for (const agreement of agreementKinds) {
      expect((await acceptedAgreement(agreement)).json()).toEqual({ statusCode: StatusCode.SUCCESS, agreed: true, version: agreementVersions[agreement] });
    }
  });

  it('records the version accepted; an older one is not the current agreement until accepted again', async () => {
    await t.db.update(agreementAcceptances).set({ version: '2025-01-01' }).where(eq(agreementAcceptances.userId, userId));
    expect((await acceptedAgreement('terms')).json()).toEqual({ statusCode: StatusCode.SUCCESS, agreed: false, version: '2025-01-01' });
    await acceptAgreement({ legal: { esign: null, terms: 'agreed', cardholder3: null } });
    expect((await acceptedAgreement('terms')).json()).toEqual({ statusCode: StatusCode.SUCCESS, agreed: true, version: agreementVersions.terms });
    expect((await acceptedAgreement('esign')).json().version).toBe('2025-01-01');
    await acceptAgreement({ legal: { esign: 'agreed', terms: null, cardholder3: 'agreed' } });
  });

  it("records only the agreements marked 'agreed'", async () => {
    await t.db.delete(agreementAcceptances).where(eq(agreementAcceptances.userId, userId));
    expect((await acceptedAgreement('esign')).json()).toEqual({ statusCode: StatusCode.SUCCESS, agreed: false, version: null });

    const response = await acceptAgreement({ legal: { esign: 'agreed', terms: null, cardholder3: null } });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await acceptedAgreement('esign')).json().agreed).toBe(true);
    expect((await acceptedAgreement('terms')).json().agreed).toBe(false);
    expect((await acceptedAgreement('cardholder3')).json().agreed).toBe(false);

    // Accepting again keeps the first acceptance and adds the rest.
    const [first] = await t.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, userId));
    await acceptAgreement({ legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' } });
    const rows = await t.db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, userId));
    expect(rows).toHaveLength(3);
    expect(rows.find((row) => row.kind === 'esign')!.acceptedAt).toEqual(first!.acceptedAt);
  });

  it.each([
    ['an unknown agreement', { legal: { esign: 'agreed', terms: null, cardholder3: null, privacy: 'agreed' } }],
    ['a missing agreement', { legal: { esign: 'agreed', terms: null } }],
    ['true instead of agreed', { legal: { esign: true, terms: null, cardholder3: null } }],
    ['no legal', {}],
    ['an unknown key', { legal: { esign: null, terms: null, cardholder3: null }, userId: 'someone-else' }],
  ])('answers INVALID_PARAMETERS for %s', async (_name, payload) => {
    const response = await acceptAgreement(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it.each(['privacy', '', 'ESIGN'])('answers INVALID_PARAMETERS for agreement=%j', async (agreement) => {
    const response = await acceptedAgreement(agreement);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('needs an access token (before looking at the body)', async () => {
    const noToken = await t.app.inject({ method: 'POST', url: '/api/v1/accept-agreement', payload: { nonsense: 1 } });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const forged = await acceptedAgreement('esign', 'not-a-token');
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});

describe('GET /agreement: the texts, before anyone agrees', () => {
  it.each(agreementKinds.flatMap((kind) => (['en', 'es'] as const).map((locale) => [kind, locale] as const)))(
    'answers %s in %s with its current version, a title and sections, without a token',
    async (kind, locale) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/agreement?kind=${kind}&locale=${locale}` });
      expect(response.statusCode).toBe(200);
      const { agreement } = response.json();
      expect(agreement).toMatchObject({ kind, locale, version: agreementVersions[kind], title: expect.any(String) });
      expect(agreement.sections.length).toBeGreaterThan(1);
      for (const section of agreement.sections) expect(section.paragraphs.join(' ').length).toBeGreaterThan(80);
    },
  );

  it('is really translated, and the Cardholder Agreement states the fees of contract/shared/fees.ts', async () => {
    const read = async (kind: string, locale: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/agreement?kind=${kind}&locale=${locale}` })).json().agreement;
    for (const kind of agreementKinds) expect((await read(kind, 'es')).title).not.toBe((await read(kind, 'en')).title);
    const text = JSON.stringify(await read('cardholder3', 'en'));
    expect(text).toContain('$2.50');
    expect(text).toContain('$3.50');
  });

  it('answers 400 {2} for an unknown agreement or language', async () => {
    for (const url of ['/api/v1/agreement?kind=privacy&locale=en', '/api/v1/agreement?kind=terms&locale=fr', '/api/v1/agreement?kind=terms']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect([response.statusCode, response.json()]).toEqual([400, { statusCode: StatusCode.INVALID_PARAMETERS }]);
    }
  });
});

describe('POST /set-unlock-code', () => {
  const setUnlockCode = (payload: unknown, token = access) =>
    t.app.inject({ method: 'POST', url: '/api/v1/set-unlock-code', headers: bearer(token), payload: payload as object });

  it('sets a new unlock code, hashed, which then unlocks', async () => {
    const { refresh } = await signIn(t.app);
    const response = await setUnlockCode({ currentUnlockCode: demoCardholder.unlockCode, unlockCode: '3971' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    const [row] = await t.db.select({ hash: users.unlockCodeHash }).from(users).where(eq(users.id, userId));
    expect(row!.hash).toMatch(/^scrypt\$/);
    expect(row!.hash).not.toContain('3971');

    expect((await unlock(t.app, refresh, '3971')).body.statusCode).toBe(StatusCode.SUCCESS);

    // Back to the documented demo code for the other tests.
    expect((await setUnlockCode({ currentUnlockCode: '3971', unlockCode: demoCardholder.unlockCode })).statusCode).toBe(200);
  });

  it.each([
    ['1234', M.unlockCodeObvious],
    ['0000', M.unlockCodeObvious],
    ['9876', M.unlockCodeObvious],
    ['123', M.unlockCodeInvalid],
    ['12a4', M.unlockCodeInvalid],
    ['', M.unlockCodeRequired],
  ])('refuses %j with FAILED_VALIDATION', async (unlockCode, message) => {
    const response = await setUnlockCode({ currentUnlockCode: demoCardholder.unlockCode, unlockCode });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: { unlockCode: message } });
  });

  it.each([
    ['a number', { currentUnlockCode: demoCardholder.unlockCode, unlockCode: 3971 }],
    ['an unknown key', { currentUnlockCode: demoCardholder.unlockCode, unlockCode: '3971', userId: 'x' }],
    ['no current code', { unlockCode: '3971' }],
    ['no code', {}],
  ])('answers INVALID_PARAMETERS for %s', async (_name, payload) => {
    const response = await setUnlockCode(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
  });

  it('needs an access token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/set-unlock-code', payload: { currentUnlockCode: demoCardholder.unlockCode, unlockCode: '3971' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });
});
