/** The registration calls (src/features/identity/registrationCalls.ts) over the API client: paths, bodies, no bearer token, and results by HTTP status. */
import { describe, expect, it, vi } from 'vitest';
import type { RegistrationPayload } from '../../contract/identity/types.ts';
import { ApiRefusedError, ApiUnavailableError, createApi, type ApiSession } from '../../src/shared/api/client.ts';
import { needsCompanionToken, registrationCalls } from '../../src/features/identity/registrationCalls.ts';
import { createFakeCardApi } from '../support/fakeCardApi.ts';

function setup() {
  const cardApi = createFakeCardApi();
  const session: ApiSession = { accessToken: 'access-1', fingerprint: 'fp-1', deviceUUID: 'device-1', ebtAccountId: 'EBT-1', locale: 'en' };
  const hooks = {
    session: () => session,
    onAuthRequired: vi.fn(async (_statusCode: number): Promise<string | null> => null),
    onNoStatusCode: vi.fn(),
    onUnexpectedError: vi.fn(),
  };
  return { cardApi, hooks, api: registrationCalls(createApi(hooks, cardApi.fetcher)) };
}

const payload: RegistrationPayload = {
  firstName: 'Ana',
  middleName: '',
  lastName: 'López',
  dob: '01/05/1990',
  ssn: '123456789',
  email: 'ana@example.test',
  phone: '2022010143',
  mfaToken: 'mfa-1',
  addressLegal: { street1: '12 Elm St', street2: '', city: 'Columbus', state: 'OH', zip: '43004' },
  unlockCode: '2580',
  legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' },
  providersUuid: 'companion-1',
  profile: null,
};

async function register(answer: unknown, status: number) {
  const { cardApi, api, hooks } = setup();
  const result = api.register(payload);
  await vi.waitFor(() => expect(cardApi.isWaiting('/api/v1/register')).toBe(true));
  cardApi.answer('/api/v1/register', answer, status);
  return { result, hooks };
}

describe('registration calls', () => {
  it("sends the companion app's token for the linked companion user, and nothing when there is none", async () => {
    const { cardApi, api } = setup();
    void api.register(payload, 'companion-token-1').catch(() => {});
    void api.register({ ...payload, providersUuid: null }).catch(() => {});
    await vi.waitFor(() => expect(cardApi.requests).toHaveLength(2));
    const headers = cardApi.requests.map((request) => new Headers(request.init?.headers));
    expect(headers[0]!.get('Companion-Authorization')).toBe('Bearer companion-token-1');
    expect(headers[0]!.get('Authorization')).toBeNull();
    expect(headers[1]!.get('Companion-Authorization')).toBeNull();
  });

  it("asks the companion app's token for a companion user or an EBT account the host linked, and not otherwise", () => {
    expect(needsCompanionToken({ providersUuid: 'companion-1' }, null)).toBe(true);
    expect(needsCompanionToken({ providersUuid: null }, 'EBT-4417-2209')).toBe(true);
    expect(needsCompanionToken({ providersUuid: null }, null)).toBe(false);
  });

  it('post each body exactly as the contract says, with the device headers and no bearer token', async () => {
    const { cardApi, api } = setup();
    const address = { street1: '12 Elm St', street2: 'Apt 4', city: 'Columbus', state: 'OH', zip: '43004-1234' };
    const calls = [
      api.verifyEmail('ana@example.test'),
      api.phoneNumberInUse('2022010143'),
      api.requestVerification('2022010143'),
      api.verifyPhone('2022010143', '123456'),
      api.verifyAddress(address),
      api.register(payload),
    ];
    await vi.waitFor(() => expect(cardApi.requests).toHaveLength(6));
    expect(cardApi.requests.map((request) => [request.path, request.init?.method, JSON.parse(String(request.init?.body))])).toEqual([
      ['/api/v1/verify/email', 'POST', { email: 'ana@example.test' }],
      ['/api/v1/phone-number-in-use', 'POST', { phone: '2022010143' }],
      ['/api/v1/request-verification', 'POST', { phone: '2022010143' }],
      ['/api/v1/verify-phone', 'POST', { phone: '2022010143', code: '123456' }],
      ['/api/v1/verify-address', 'POST', { ...address, addressType: 'legal' }],
      ['/api/v1/register', 'POST', payload],
    ]);
    for (const request of cardApi.requests) {
      const headers = new Headers(request.init?.headers);
      expect(headers.has('Authorization')).toBe(false);
      expect([headers.get('Fingerprint'), headers.get('Device-UUID'), headers.get('EBT-Account-ID')]).toEqual(['fp-1', 'device-1', 'EBT-1']);
    }
    for (const path of ['/verify/email', '/phone-number-in-use', '/request-verification', '/verify-phone', '/verify-address']) {
      cardApi.answer(`/api/v1${path}`, { statusCode: 0 });
    }
    cardApi.answer('/api/v1/register', { statusCode: 1 }, 403);
    await Promise.all(calls);
  });

  it('answer their codes as results, whatever the HTTP status', async () => {
    const { cardApi, api, hooks } = setup();
    const free = api.verifyEmail('new@example.test');
    const tooMany = api.requestVerification('2022010143');
    const wrong = api.verifyPhone('2022010143', '000000');
    const poBox = api.verifyAddress({ street1: 'PO Box 1', street2: '', city: 'Columbus', state: 'OH', zip: '43004' });
    await vi.waitFor(() => expect(cardApi.requests).toHaveLength(4));
    cardApi.answer('/api/v1/verify/email', { statusCode: 3 }, 404);
    cardApi.answer('/api/v1/request-verification', { statusCode: 201, retryAfterSeconds: 540 }, 429);
    cardApi.answer('/api/v1/verify-phone', { statusCode: 200, attemptsLeft: 2 });
    cardApi.answer('/api/v1/verify-address', { statusCode: 304, optOutAllowed: true });
    await expect(free).resolves.toEqual({ statusCode: 3 });
    await expect(tooMany).resolves.toEqual({ statusCode: 201, retryAfterSeconds: 540 });
    await expect(wrong).resolves.toEqual({ statusCode: 200, attemptsLeft: 2 });
    await expect(poBox).resolves.toEqual({ statusCode: 304, optOutAllowed: true });
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
  });

  it('never treat an auth code as the session expiring (they have no session)', async () => {
    const { cardApi, api, hooks } = setup();
    const answer = api.verifyEmail('ana@example.test');
    await vi.waitFor(() => expect(cardApi.isWaiting('/api/v1/verify/email')).toBe(true));
    cardApi.answer('/api/v1/verify/email', { statusCode: 104 }, 401);
    await expect(answer).resolves.toEqual({ statusCode: 104 });
    expect(hooks.onAuthRequired).not.toHaveBeenCalled();
  });
});

describe('POST /register results, told apart by HTTP status', () => {
  it('200 {0} is success with the tokens', async () => {
    const { result } = await register({ statusCode: 0, access: 'a', refresh: 'r', isInternal: true }, 200);
    await expect(result).resolves.toEqual({ statusCode: 0, access: 'a', refresh: 'r', isInternal: true });
  });

  it('403 {1} is APPLICATION_DENIED', async () => {
    await expect((await register({ statusCode: 1 }, 403)).result).resolves.toEqual({ statusCode: 1 });
  });

  it('403 {2} is CIP_TAKEN', async () => {
    await expect((await register({ statusCode: 2 }, 403)).result).resolves.toEqual({ statusCode: 2 });
  });

  it('429 {201, retryAfterSeconds} is the account-lookup wait (10 minutes when it names none); a 200 {201} is refused', async () => {
    await expect((await register({ statusCode: 201, retryAfterSeconds: 540 }, 429)).result).resolves.toEqual({
      statusCode: 201,
      retryAfterSeconds: 540,
    });
    await expect((await register({ statusCode: 201 }, 429)).result).resolves.toEqual({ statusCode: 201, retryAfterSeconds: 600 });
    await expect((await register({ statusCode: 201, retryAfterSeconds: 540 }, 200)).result).rejects.toEqual(new ApiRefusedError(201));
  });

  it('400 {4, fieldErrors} is a broken rule with the fields', async () => {
    const fieldErrors = { dob: 'dob.under18', 'addressLegal.zip': 'zip.invalid' };
    await expect((await register({ statusCode: 4, fieldErrors }, 400)).result).resolves.toEqual({ statusCode: 4, fieldErrors });
  });

  it('400 {2} is INVALID_PARAMETERS, never CIP_TAKEN: refused', async () => {
    await expect((await register({ statusCode: 2 }, 400)).result).rejects.toEqual(new ApiRefusedError(2));
  });

  it('200 {0} without tokens, or a 200 {1}, is refused', async () => {
    await expect((await register({ statusCode: 0 }, 200)).result).rejects.toBeInstanceOf(ApiRefusedError);
    await expect((await register({ statusCode: 1 }, 200)).result).rejects.toBeInstanceOf(ApiRefusedError);
  });

  it('500 {5} is refused and reported as unexpected', async () => {
    const { result, hooks } = await register({ statusCode: 5 }, 500);
    await expect(result).rejects.toEqual(new ApiRefusedError(5));
    expect(hooks.onUnexpectedError).toHaveBeenCalledWith({ path: '/register' });
  });

  it('no statusCode (a proxy page) is unavailable, and opens the error modal', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.register(payload);
    await vi.waitFor(() => expect(cardApi.isWaiting('/api/v1/register')).toBe(true));
    cardApi.fail('/api/v1/register');
    await expect(result).rejects.toBeInstanceOf(ApiUnavailableError);
    expect(hooks.onNoStatusCode).toHaveBeenCalledWith({ path: '/register', httpStatus: 502, suppressErrorModal: false });
  });
});
