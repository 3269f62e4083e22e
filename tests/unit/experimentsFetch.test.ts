/** The experiments call of the card API client (createApi(...).getExperiments) against the fake card API. */
import { describe, expect, it, vi } from 'vitest';
import { ApiRefusedError, ApiUnavailableError, createApi, type ApiSession } from '../../src/shared/api/client.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { createFakeCardApi } from '../support/fakeCardApi.ts';

const path = '/api/v1/experiments';
const flags: ExperimentFlags = { virtualCards: true, directDeposit: false, cashLoadMap: true, showNewDebitDetails: false };

function setup(session: Partial<ApiSession> = {}) {
  const cardApi = createFakeCardApi();
  /** The request URLs as the client built them (the fake keeps only the path). */
  const urls: string[] = [];
  const fetcher = cardApi.fetcher.create({ onRequest: ({ request }) => void urls.push(String(request)) });
  const hooks = {
    session: () => ({ accessToken: 'access-1', fingerprint: 'fp-1', deviceUUID: 'device-1', ebtAccountId: 'ebt-1', locale: 'en' as const, ...session }),
    onAuthRequired: vi.fn(async (_statusCode: number): Promise<string | null> => null),
    onNoStatusCode: vi.fn(),
    onUnexpectedError: vi.fn(),
  };
  return { cardApi, urls, hooks, api: createApi(hooks, fetcher) };
}

async function waiting(cardApi: ReturnType<typeof createFakeCardApi>) {
  await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
}

describe('getExperiments', () => {
  it('200 with statusCode 0 answers the flags', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getExperiments(false);
    await waiting(cardApi);
    cardApi.answer(path, { statusCode: StatusCode.SUCCESS, flags });
    await expect(result).resolves.toEqual(flags);
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
    expect(hooks.onUnexpectedError).not.toHaveBeenCalled();
  });

  it('404 with statusCode 3 (no config for this user) answers null, reporting nothing', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getExperiments(true);
    await waiting(cardApi);
    cardApi.answer(path, { statusCode: StatusCode.NOT_ALLOWED }, 404);
    await expect(result).resolves.toBeNull();
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
    expect(hooks.onUnexpectedError).not.toHaveBeenCalled();
  });

  it('500 with statusCode 5 rejects and reports the UNEXPECTED_ERROR', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getExperiments(false);
    const outcome = expect(result).rejects.toSatisfy(
      (error) => error instanceof ApiRefusedError && error.statusCode === StatusCode.UNEXPECTED_ERROR,
    );
    await waiting(cardApi);
    cardApi.answer(path, { statusCode: StatusCode.UNEXPECTED_ERROR }, 500);
    await outcome;
    expect(hooks.onUnexpectedError).toHaveBeenCalledExactlyOnceWith({ path: '/experiments?isInternal=false' });
    expect(hooks.onNoStatusCode).not.toHaveBeenCalled();
  });

  it('a 502 HTML page rejects and is reported without opening the error modal', async () => {
    const { cardApi, api, hooks } = setup();
    const result = api.getExperiments(true);
    const outcome = expect(result).rejects.toBeInstanceOf(ApiUnavailableError);
    await waiting(cardApi);
    cardApi.fail(path);
    await outcome;
    expect(hooks.onNoStatusCode).toHaveBeenCalledExactlyOnceWith({
      path: '/experiments?isInternal=true',
      httpStatus: 502,
      suppressErrorModal: true,
    });
  });

  it('REFRESH_REQUIRED or SIGN_IN_REQUIRED do not lock or sign out the session (the call sends no token)', async () => {
    for (const statusCode of [StatusCode.REFRESH_REQUIRED, StatusCode.SIGN_IN_REQUIRED]) {
      const { cardApi, api, hooks } = setup();
      const outcome = expect(api.getExperiments(false)).rejects.toBeInstanceOf(ApiRefusedError);
      await waiting(cardApi);
      cardApi.answer(path, { statusCode }, 401);
      await outcome;
      expect(hooks.onAuthRequired).not.toHaveBeenCalled();
    }
  });

  it.each([true, false])('GETs /api/v1/experiments with isInternal=%s in the query and no Authorization header', async (isInternal) => {
    const { cardApi, api, urls } = setup();
    void api.getExperiments(isInternal).catch(() => {});
    await waiting(cardApi);
    expect(cardApi.requests).toHaveLength(1);
    const request = cardApi.requests[0]!;
    expect(request.path).toBe(path);
    expect(request.init?.method).toBe('GET');
    expect(urls).toHaveLength(1);
    const query = new URL(urls[0]!, 'http://app.test').searchParams;
    expect([...query.entries()]).toEqual([['isInternal', String(isInternal)]]);
    const headers = new Headers(request.init?.headers);
    // The session has an access token, but the experiment config is fetched without it.
    expect(headers.has('Authorization')).toBe(false);
    expect(headers.get('Fingerprint')).toBe('fp-1');
    expect(headers.get('Device-UUID')).toBe('device-1');
    cardApi.answer(path, { statusCode: 0, flags });
  });
});
