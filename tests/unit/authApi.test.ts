/** The auth calls of contract/session/types.ts: paths, bodies, bearer tokens, and 401/429 answers as results. */
import { describe, expect, it, vi } from 'vitest';
import { createApi, type ApiSession } from '../../src/shared/api/client.ts';
import { registrationCalls } from '../../src/features/identity/registrationCalls.ts';
import { createFakeCardApi } from '../support/fakeCardApi.ts';
import { identityCalls } from '../../src/shared/api/identityCalls.ts';

function setup() {
  const cardApi = createFakeCardApi();
  const session: ApiSession = { accessToken: 'access-1', fingerprint: 'fp-1', deviceUUID: 'device-1', ebtAccountId: null, locale: 'en' };
  const hooks = { session: () => session, onAuthRequired: vi.fn(async (_statusCode: number): Promise<string | null> => null), onNoStatusCode: vi.fn(), onUnexpectedError: vi.fn() };
  return { cardApi, hooks, api: createApi(hooks, cardApi.fetcher) };
}

const bodyOf = (request: { init?: RequestInit | undefined }) => JSON.parse(String(request.init?.body));
const bearerOf = (request: { init?: RequestInit | undefined }) => new Headers(request.init?.headers).get('authorization');

describe('api client: auth calls', () => {
  it('sends each call to its path with the body of contract/session/types.ts and the right bearer', async () => {
    const { cardApi, api } = setup();
    void api.signIn({ email: 'ana@example.test', password: 'pw' });
    void api.signIn({ email: 'ana@example.test', password: 'pw', code: '123456' });
    void identityCalls(api).verifySsnWithRefreshToken('refresh-1', '123456789');
    void api.resetUnlockCode('refresh-1', 'ssn-token-1', '2468');
    void registrationCalls(api).verifyEmail('ana@example.test');
    void identityCalls(api).verifySsn('ana@example.test', '123456789', 'mfa-1');
    void api.sendResetCode('ana@example.test');
    void api.verifyResetCode('ana@example.test', '123456');
    void api.changePassword({ email: 'ana@example.test', ssn: '123456789', password: 'NewPass99', mfaToken: 'mfa-1' });
    await vi.waitFor(() => expect(cardApi.requests).toHaveLength(9));
    const seen = cardApi.requests.map((request) => [request.path, request.init?.method, bodyOf(request), bearerOf(request)]);
    expect(seen).toEqual([
      ['/api/v1/sign-in', 'POST', { email: 'ana@example.test', password: 'pw' }, null],
      ['/api/v1/sign-in', 'POST', { email: 'ana@example.test', password: 'pw', code: '123456' }, null],
      ['/api/v1/verify/ssn/logged-in-refresh-token', 'POST', { ssn: '123456789' }, 'Bearer refresh-1'],
      ['/api/v1/reset-unlock-code', 'POST', { ssnToken: 'ssn-token-1', unlockCode: '2468' }, 'Bearer refresh-1'],
      ['/api/v1/verify/email', 'POST', { email: 'ana@example.test' }, null],
      ['/api/v1/verify/ssn', 'POST', { email: 'ana@example.test', ssn: '123456789', mfaToken: 'mfa-1' }, null],
      ['/api/v1/reset-password', 'POST', { email: 'ana@example.test' }, null],
      ['/api/v1/verify/reset-code', 'POST', { email: 'ana@example.test', code: '123456' }, null],
      ['/api/v1/change-password', 'POST', { email: 'ana@example.test', ssn: '123456789', password: 'NewPass99', mfaToken: 'mfa-1' }, null],
    ]);
  });

  it('answers the expected 401 and 429 answers as results', async () => {
    const { cardApi, api, hooks } = setup();
    const answers = [
      { statusCode: 105, phone: '(XXX) XXX-0143' },
      { statusCode: 200, attemptsLeft: 2 },
      { statusCode: 201, retryAfterSeconds: 600 },
      { statusCode: 202, phone: '(XXX) XXX-0143' },
      { statusCode: 203, phone: '(XXX) XXX-0143' },
      { statusCode: 204, phone: '(XXX) XXX-0143' },
      { statusCode: 100, retryAfterSeconds: 300 },
    ];
    for (const answer of answers) {
      const result = api.signIn({ email: 'a@b.test', password: 'pw', code: '123456' });
      await vi.waitFor(() => expect(cardApi.isWaiting('/api/v1/sign-in')).toBe(true));
      cardApi.answer('/api/v1/sign-in', answer, answer.statusCode === 201 ? 429 : 401);
      await expect(result).resolves.toEqual(answer);
    }
    const ssn = identityCalls(api).verifySsnWithRefreshToken('refresh-1', '123456789');
    await vi.waitFor(() => expect(cardApi.isWaiting('/api/v1/verify/ssn/logged-in-refresh-token')).toBe(true));
    cardApi.answer('/api/v1/verify/ssn/logged-in-refresh-token', { statusCode: 4, attemptsLeft: 2 }, 401);
    await expect(ssn).resolves.toEqual({ statusCode: 4, attemptsLeft: 2 });
    const email = registrationCalls(api).verifyEmail('nobody@example.test');
    await vi.waitFor(() => expect(cardApi.isWaiting('/api/v1/verify/email')).toBe(true));
    cardApi.answer('/api/v1/verify/email', { statusCode: 3 }, 404);
    await expect(email).resolves.toEqual({ statusCode: 3 });
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
    expect(hooks.onAuthRequired).not.toHaveBeenCalled();
  });
});
