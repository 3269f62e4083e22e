/** The card API client: where requests go, which headers they carry, how answers are classified. */
import { createFetch } from 'ofetch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiRefusedError,
  ApiUnavailableError,
  AuthRequiredError,
  createApi,
  requestTimeoutMs,
  type ApiSession,
} from '../../src/shared/api/client.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { serverAnswered } from '../../src/shared/api/serverAnswered.ts';
import { createFakeCardApi } from '../support/fakeCardApi.ts';
import { identityCalls } from '../../src/shared/api/identityCalls.ts';

const home = { statusCode: StatusCode.SUCCESS, accountOverview: { balance: 100 } };

function setup(session: Partial<ApiSession> = {}, fetcher?: ReturnType<typeof createFetch>) {
  const cardApi = createFakeCardApi();
  const current: ApiSession = { accessToken: 'access-1', fingerprint: 'fp-1', deviceUUID: 'device-1', ebtAccountId: null, locale: 'en', ...session };
  const hooks = {
    session: () => current,
    onAuthRequired: vi.fn(async (_statusCode: number): Promise<string | null> => null),
    onNoStatusCode: vi.fn(),
    onUnexpectedError: vi.fn(),
  };
  const api = createApi(hooks, fetcher ?? cardApi.fetcher);
  return { cardApi, current, hooks, api };
}

/** The headers of the only request sent so far. */
function headersOf(cardApi: ReturnType<typeof createFakeCardApi>, index = 0): Headers {
  const request = cardApi.requests[index];
  if (!request) throw new Error(`No request #${index}`);
  return new Headers(request.init?.headers);
}

async function waitingFor(cardApi: ReturnType<typeof createFakeCardApi>, path: string) {
  await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
}

describe('api client: requests', () => {
  it('sends each call to /api/v1/<path> with its method and body', async () => {
    const { cardApi, api } = setup();
    const calls = [
      api.getHome(),
      api.getUser(),
      api.signIn({ email: 'ana@example.test', password: 'pw' }),
      api.refreshTokens('refresh-1', '1234'),
      api.signOut('refresh-1'),
    ];
    await vi.waitFor(() => expect(cardApi.requests).toHaveLength(5));
    expect(cardApi.requests.map((r) => [r.path, r.init?.method])).toEqual([
      ['/api/v1/home', 'GET'],
      ['/api/v1/user', 'GET'],
      ['/api/v1/sign-in', 'POST'],
      ['/api/v1/refresh-tokens', 'POST'],
      ['/api/v1/sign-out', 'POST'],
    ]);
    expect(JSON.parse(String(cardApi.requests[2]!.init?.body))).toEqual({ email: 'ana@example.test', password: 'pw' });
    expect(JSON.parse(String(cardApi.requests[3]!.init?.body))).toEqual({ unlockCode: '1234' });
    cardApi.answer('/api/v1/home', home);
    cardApi.answer('/api/v1/user', { statusCode: 0, user: {} });
    cardApi.answer('/api/v1/sign-in', { statusCode: 0 });
    cardApi.answer('/api/v1/refresh-tokens', { statusCode: 0 });
    cardApi.answer('/api/v1/sign-out', { statusCode: 0 });
    await Promise.all(calls);
  });

  it('always sends Fingerprint and Device-UUID, the access token as bearer, and no EBT-Account-ID when unset', async () => {
    const { cardApi, api } = setup();
    const result = api.getHome();
    await waitingFor(cardApi, '/api/v1/home');
    const headers = headersOf(cardApi);
    expect(headers.get('Fingerprint')).toBe('fp-1');
    expect(headers.get('Device-UUID')).toBe('device-1');
    expect(headers.get('Authorization')).toBe('Bearer access-1');
    expect(headers.has('EBT-Account-ID')).toBe(false);
    cardApi.answer('/api/v1/home', home);
    await expect(result).resolves.toEqual(home);
  });

  it("says the app's language in Accept-Language, so texts and emails lead with it", async () => {
    const { cardApi, api, current } = setup({ locale: 'es' });
    const first = api.getHome();
    await waitingFor(cardApi, '/api/v1/home');
    expect(headersOf(cardApi).get('Accept-Language')).toBe('es');
    cardApi.answer('/api/v1/home', home);
    await first;
    current.locale = 'en';
    const second = api.getHome();
    await waitingFor(cardApi, '/api/v1/home');
    expect(headersOf(cardApi, 1).get('Accept-Language')).toBe('en');
    cardApi.answer('/api/v1/home', home);
    await second;
  });

  it('sends EBT-Account-ID when the session has one', async () => {
    const { cardApi, api } = setup({ ebtAccountId: 'ebt-42' });
    void api.getUser();
    await waitingFor(cardApi, '/api/v1/user');
    expect(headersOf(cardApi).get('EBT-Account-ID')).toBe('ebt-42');
  });

  it('reads the session for every call, so new tokens are used at once', async () => {
    const { cardApi, api, current } = setup();
    void api.getHome();
    await waitingFor(cardApi, '/api/v1/home');
    current.accessToken = 'access-2';
    current.ebtAccountId = 'ebt-7';
    void api.getUser();
    await waitingFor(cardApi, '/api/v1/user');
    expect(headersOf(cardApi, 0).get('Authorization')).toBe('Bearer access-1');
    expect(headersOf(cardApi, 1).get('Authorization')).toBe('Bearer access-2');
    expect(headersOf(cardApi, 1).get('EBT-Account-ID')).toBe('ebt-7');
  });

  it('sends no Authorization for account calls when there is no access token', async () => {
    const { cardApi, api } = setup({ accessToken: null });
    void api.getHome();
    await waitingFor(cardApi, '/api/v1/home');
    expect(headersOf(cardApi).has('Authorization')).toBe(false);
  });

  it('while locked (a refresh token, no access token), an account call waits for the unlock instead of going without a token', async () => {
    const { cardApi, api, hooks, current } = setup({ accessToken: null, refreshToken: 'refresh-1' });
    let resume!: (access: string | null) => void;
    hooks.onAuthRequired.mockImplementation(() => new Promise((resolve) => (resume = resolve)));
    const result = api.getHome();
    await vi.waitFor(() => expect(hooks.onAuthRequired.mock.calls).toEqual([[StatusCode.REFRESH_REQUIRED]]));
    // Sent without a token, it would be answered SIGN_IN_REQUIRED, which ends the session.
    expect(cardApi.requests).toEqual([]);
    current.accessToken = 'access-2';
    resume('access-2');
    await waitingFor(cardApi, '/api/v1/home');
    expect(headersOf(cardApi).get('Authorization')).toBe('Bearer access-2');
    cardApi.answer('/api/v1/home', home);
    await expect(result).resolves.toEqual(home);
  });

  it('while locked, a call the session gives up rejects with AuthRequiredError, sending nothing', async () => {
    const { cardApi, api } = setup({ accessToken: null, refreshToken: 'refresh-1' });
    await expect(api.getHome()).rejects.toSatisfy((error) => error instanceof AuthRequiredError && error.statusCode === StatusCode.REFRESH_REQUIRED);
    expect(cardApi.requests).toEqual([]);
  });

  it('uses the refresh token, not the access token, for refreshTokens and signOut', async () => {
    const { cardApi, api } = setup();
    void api.refreshTokens('refresh-9', '1234');
    void api.signOut('refresh-9');
    await waitingFor(cardApi, '/api/v1/refresh-tokens');
    await waitingFor(cardApi, '/api/v1/sign-out');
    for (const index of [0, 1]) {
      const headers = headersOf(cardApi, index);
      expect(headers.get('Authorization')).toBe('Bearer refresh-9');
      expect(headers.get('Fingerprint')).toBe('fp-1');
      expect(headers.get('Device-UUID')).toBe('device-1');
    }
  });

  it('sends no Authorization when refreshTokens or signOut get no refresh token', async () => {
    const { cardApi, api } = setup();
    void api.refreshTokens(null, '1234');
    void api.signOut(null);
    await waitingFor(cardApi, '/api/v1/refresh-tokens');
    await waitingFor(cardApi, '/api/v1/sign-out');
    expect(headersOf(cardApi, 0).has('Authorization')).toBe(false);
    expect(headersOf(cardApi, 1).has('Authorization')).toBe(false);
  });

  it('sends no Authorization for signIn even with an access token, but still the device headers', async () => {
    const { cardApi, api } = setup({ ebtAccountId: 'ebt-1' });
    void api.signIn({ email: 'a@b.test', password: 'pw' });
    await waitingFor(cardApi, '/api/v1/sign-in');
    const headers = headersOf(cardApi);
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.get('Fingerprint')).toBe('fp-1');
    expect(headers.get('Device-UUID')).toBe('device-1');
    expect(headers.get('EBT-Account-ID')).toBe('ebt-1');
  });
});

describe('api client: timeout', () => {
  afterEach(() => void vi.useRealTimers());

  it('is 120 seconds', () => {
    expect(requestTimeoutMs).toBe(120_000);
  });

  it('aborts a request that never answers after 120 s and reports it without an HTTP status', async () => {
    vi.useFakeTimers();
    // A fetch that, like the browser's, never answers on its own but honours the abort signal.
    const signals: AbortSignal[] = [];
    const fetch = vi.fn(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          const signal = init?.signal;
          if (!signal) return;
          signals.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const { api, hooks } = setup({}, createFetch({ fetch: fetch as typeof globalThis.fetch }));
    const result = api.getHome();
    const outcome = expect(result).rejects.toBeInstanceOf(ApiUnavailableError);

    await vi.advanceTimersByTimeAsync(requestTimeoutMs - 1);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(signals[0]!.aborted).toBe(true);
    expect((signals[0]!.reason as Error).name).toBe('TimeoutError');
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/home', httpStatus: null, suppressErrorModal: false });
    // retry: 0 — a timed-out GET is not sent again.
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('api client: auth status codes', () => {
  it('REFRESH_REQUIRED on getHome asks the session to unlock once and rejects with AuthRequiredError', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getHome();
    const outcome = expect(result).rejects.toSatisfy(
      (error) => error instanceof AuthRequiredError && error.statusCode === StatusCode.REFRESH_REQUIRED,
    );
    await waitingFor(cardApi, '/api/v1/home');
    cardApi.answer('/api/v1/home', { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
    await outcome;
    expect(hooks.onAuthRequired.mock.calls).toEqual([[StatusCode.REFRESH_REQUIRED]]);
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
  });

  it('a call the session resumes is sent once more with the new access token, and answers as that one does', async () => {
    const { cardApi, api, hooks, current } = setup();
    hooks.onAuthRequired.mockImplementation(async () => {
      current.accessToken = 'access-2';
      return 'access-2';
    });
    const result = api.getHome();
    await waitingFor(cardApi, '/api/v1/home');
    cardApi.answer('/api/v1/home', { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
    await waitingFor(cardApi, '/api/v1/home');
    expect(headersOf(cardApi, 1).get('Authorization')).toBe('Bearer access-2');
    cardApi.answer('/api/v1/home', home);
    await expect(result).resolves.toEqual(home);
    expect(cardApi.requests.map((request) => request.path)).toEqual(['/api/v1/home', '/api/v1/home']);
  });

  it('a resumed call is sent again only once: a second auth answer ends it with AuthRequiredError', async () => {
    const { cardApi, api, hooks } = setup();
    hooks.onAuthRequired.mockImplementation(async () => 'access-2');
    const result = api.getUser();
    const outcome = expect(result).rejects.toBeInstanceOf(AuthRequiredError);
    await waitingFor(cardApi, '/api/v1/user');
    cardApi.answer('/api/v1/user', { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    await waitingFor(cardApi, '/api/v1/user');
    cardApi.answer('/api/v1/user', { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    await outcome;
    expect(hooks.onAuthRequired).toHaveBeenCalledTimes(2);
    expect(cardApi.requests).toHaveLength(2);
  });

  it('a call made with another token (the refresh token) is not sent again when the session resumes', async () => {
    const { cardApi, api, hooks } = setup();
    hooks.onAuthRequired.mockImplementation(async () => 'access-2');
    const result = identityCalls(api).verifySsnWithRefreshToken('refresh-1', '123456789');
    const outcome = expect(result).rejects.toBeInstanceOf(AuthRequiredError);
    await waitingFor(cardApi, '/api/v1/verify/ssn/logged-in-refresh-token');
    cardApi.answer('/api/v1/verify/ssn/logged-in-refresh-token', { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    await outcome;
    expect(cardApi.requests).toHaveLength(1);
  });

  it('SIGN_IN_REQUIRED on getUser asks the session to sign in once and rejects with AuthRequiredError', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getUser();
    const outcome = expect(result).rejects.toSatisfy(
      (error) => error instanceof AuthRequiredError && error.statusCode === StatusCode.SIGN_IN_REQUIRED,
    );
    await waitingFor(cardApi, '/api/v1/user');
    cardApi.answer('/api/v1/user', { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    await outcome;
    expect(hooks.onAuthRequired.mock.calls).toEqual([[StatusCode.SIGN_IN_REQUIRED]]);
  });

  it.each([
    ['refreshTokens', '/api/v1/refresh-tokens', StatusCode.REFRESH_REQUIRED],
    ['refreshTokens', '/api/v1/refresh-tokens', StatusCode.SIGN_IN_REQUIRED],
    ['signIn', '/api/v1/sign-in', StatusCode.REFRESH_REQUIRED],
    ['signIn', '/api/v1/sign-in', StatusCode.SIGN_IN_REQUIRED],
    ['signOut', '/api/v1/sign-out', StatusCode.SIGN_IN_REQUIRED],
  ] as const)('%s returns statusCode %i as its result without calling the session hooks', async (call, path, statusCode) => {
    const { cardApi, api, hooks } = setup();
    const result =
      call === 'refreshTokens'
        ? api.refreshTokens('refresh-1', '1234')
        : call === 'signIn'
          ? api.signIn({ email: 'a@b.test', password: 'pw' })
          : api.signOut('refresh-1');
    await waitingFor(cardApi, path);
    cardApi.answer(path, { statusCode }, 401);
    await expect(result).resolves.toEqual({ statusCode });
    expect(hooks.onAuthRequired).not.toHaveBeenCalled();
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
  });

  it('a 401 answer with INVALID_REFRESH_CREDENTIALS is a refreshTokens result, with its attemptsLeft', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.refreshTokens('refresh-1', '0000');
    await waitingFor(cardApi, '/api/v1/refresh-tokens');
    const answer = { statusCode: StatusCode.INVALID_REFRESH_CREDENTIALS, attemptsLeft: 2 };
    cardApi.answer('/api/v1/refresh-tokens', answer, 401);
    await expect(result).resolves.toEqual(answer);
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
  });

  it('a successful refreshTokens answer is returned with its tokens', async () => {
    const { cardApi, api } = setup();
    const result = api.refreshTokens('refresh-1', '1234');
    await waitingFor(cardApi, '/api/v1/refresh-tokens');
    const answer = { statusCode: StatusCode.SUCCESS, access: 'a2', refresh: 'r2', isInternal: false };
    cardApi.answer('/api/v1/refresh-tokens', answer);
    await expect(result).resolves.toEqual(answer);
  });
});

describe('api client: answers without a statusCode', () => {
  it('an HTML 502 page reports the path and HTTP status and rejects with ApiUnavailableError', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getHome();
    const outcome = expect(result).rejects.toSatisfy((error) => error instanceof ApiUnavailableError && error.path === '/home');
    await waitingFor(cardApi, '/api/v1/home');
    cardApi.fail('/api/v1/home');
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/home', httpStatus: 502, suppressErrorModal: false });
    expect(hooks.onAuthRequired).not.toHaveBeenCalled();
  });

  it.each([
    ['an empty object', {}],
    ['a string statusCode', { statusCode: '0' }],
    ['an error body', { error: 'Internal Server Error' }],
  ])('a JSON body with %s is reported as having no statusCode', async (_name, body) => {
    const { cardApi, api, hooks } = setup();
    const result = api.getHome();
    const outcome = expect(result).rejects.toBeInstanceOf(ApiUnavailableError);
    await waitingFor(cardApi, '/api/v1/home');
    cardApi.answer('/api/v1/home', body, 500);
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/home', httpStatus: 500, suppressErrorModal: false });
  });

  it('a 200 JSON body without statusCode is also unavailable', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.signIn({ email: 'a@b.test', password: 'pw' });
    const outcome = expect(result).rejects.toBeInstanceOf(ApiUnavailableError);
    await waitingFor(cardApi, '/api/v1/sign-in');
    cardApi.answer('/api/v1/sign-in', { access: 'a', refresh: 'r' });
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/sign-in', httpStatus: 200, suppressErrorModal: false });
  });

  it('getUser({ suppressErrorModal: true }) passes suppressErrorModal: true', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getUser({ suppressErrorModal: true });
    const outcome = expect(result).rejects.toBeInstanceOf(ApiUnavailableError);
    await waitingFor(cardApi, '/api/v1/user');
    cardApi.fail('/api/v1/user');
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/user', httpStatus: 502, suppressErrorModal: true });
  });

  it('getUser() without options does not suppress the error modal', async () => {
    const { cardApi, api, hooks } = setup();
    const outcome = expect(api.getUser()).rejects.toBeInstanceOf(ApiUnavailableError);
    await waitingFor(cardApi, '/api/v1/user');
    cardApi.fail('/api/v1/user');
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/user', httpStatus: 502, suppressErrorModal: false });
  });

  it('signOut never opens the error modal for a failed call', async () => {
    const { cardApi, api, hooks } = setup();
    const outcome = expect(api.signOut('refresh-1')).rejects.toBeInstanceOf(ApiUnavailableError);
    await waitingFor(cardApi, '/api/v1/sign-out');
    cardApi.fail('/api/v1/sign-out');
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/sign-out', httpStatus: 502, suppressErrorModal: true });
  });

  it('a network failure reports httpStatus null, is not retried, and rejects with ApiUnavailableError', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { api, hooks } = setup({}, createFetch({ fetch: fetch as typeof globalThis.fetch }));
    await expect(api.getHome()).rejects.toSatisfy((error) => error instanceof ApiUnavailableError && error.path === '/home');
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({ path: '/home', httpStatus: null, suppressErrorModal: false });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(hooks.onAuthRequired).not.toHaveBeenCalled();
  });

  it('notes whether the last call got any answer: none after a network failure, one after a gateway page', async () => {
    const offline = setup({}, createFetch({ fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof globalThis.fetch }));
    await expect(offline.api.getHome()).rejects.toBeInstanceOf(ApiUnavailableError);
    expect(serverAnswered()).toBe(false);

    const { cardApi, api } = setup();
    const outcome = expect(api.getHome()).rejects.toBeInstanceOf(ApiUnavailableError);
    await waitingFor(cardApi, '/api/v1/home');
    cardApi.fail('/api/v1/home');
    await outcome;
    expect(serverAnswered()).toBe(true);
  });
});

describe('api client: refused answers', () => {
  it('getHome with NOT_ALLOWED rejects with ApiRefusedError carrying the code, and calls no hook', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getHome();
    const outcome = expect(result).rejects.toSatisfy(
      (error) => error instanceof ApiRefusedError && error.statusCode === StatusCode.NOT_ALLOWED,
    );
    await waitingFor(cardApi, '/api/v1/home');
    cardApi.answer('/api/v1/home', { statusCode: StatusCode.NOT_ALLOWED }, 403);
    await outcome;
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
    expect(hooks.onAuthRequired).not.toHaveBeenCalled();
  });

  it('getUser with UNEXPECTED_ERROR rejects with ApiRefusedError', async () => {
    const { cardApi, api } = setup();
    const outcome = expect(api.getUser()).rejects.toSatisfy(
      (error) => error instanceof ApiRefusedError && error.statusCode === StatusCode.UNEXPECTED_ERROR,
    );
    await waitingFor(cardApi, '/api/v1/user');
    cardApi.answer('/api/v1/user', { statusCode: StatusCode.UNEXPECTED_ERROR }, 500);
    await outcome;
  });
});
