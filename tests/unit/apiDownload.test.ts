/** The card API client's file calls (`download`): the file itself, refusals, auth and failures as `call` has them. */
import { describe, expect, it, vi } from 'vitest';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { statementsRoutes } from '../../contract/statements/routes.ts';
import { ApiRefusedError, ApiUnavailableError, AuthRequiredError, createApi, type ApiSession } from '../../src/shared/api/client.ts';
import { noteServerAnswered, serverAnswered } from '../../src/shared/api/serverAnswered.ts';
import { createFakeCardApi } from '../support/fakeCardApi.ts';

const path = '/api/v1/statement';
const pdf = new TextEncoder().encode('%PDF-1.7 statement');

function setup(renewed: string | null = null) {
  const cardApi = createFakeCardApi();
  const current: ApiSession = { accessToken: 'access-1', fingerprint: 'fp-1', deviceUUID: 'device-1', ebtAccountId: null, locale: 'en' };
  const hooks = {
    session: () => current,
    onAuthRequired: vi.fn(async (_statusCode: number): Promise<string | null> => {
      if (renewed) current.accessToken = renewed;
      return renewed;
    }),
    onNoStatusCode: vi.fn(),
    onUnexpectedError: vi.fn(),
  };
  return { cardApi, hooks, api: createApi(hooks, cardApi.fetcher) };
}

const download = (api: ReturnType<typeof setup>['api']) =>
  api.download(statementsRoutes.getStatementPdf, { month: '2026-11', locale: 'es' }, { suppressErrorModal: true });

describe('api client: download', () => {
  it('answers the file with the access token, the query from the entry', async () => {
    const { cardApi, api } = setup();
    const file = download(api);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    expect(cardApi.requests[0]!.search).toBe('?month=2026-11&locale=es');
    expect(new Headers(cardApi.requests[0]!.init?.headers).get('Authorization')).toBe('Bearer access-1');
    cardApi.answerFile(path, pdf);
    const blob = await file;
    expect(Array.from(new Uint8Array(await blob.arrayBuffer()))).toEqual(Array.from(pdf));
    expect(blob.type).toBe('application/pdf');
  });

  it('notes that the server answered when the file came, after a call that got no answer', async () => {
    noteServerAnswered(false);
    const { cardApi, api } = setup();
    const file = download(api);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    cardApi.answerFile(path, pdf);
    await file;
    expect(serverAnswered()).toBe(true);
  });

  it('reads a JSON answer as a refusal', async () => {
    const { cardApi, api } = setup();
    const file = download(api);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    cardApi.answer(path, { statusCode: StatusCode.NOT_ALLOWED }, 404);
    await expect(file).rejects.toEqual(new ApiRefusedError(StatusCode.NOT_ALLOWED));
  });

  it('waits for the session under the auth modal, then asks again with the new token', async () => {
    const { cardApi, api, hooks } = setup('access-2');
    const file = download(api);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    cardApi.answer(path, { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    expect(hooks.onAuthRequired).toHaveBeenCalledWith(StatusCode.REFRESH_REQUIRED);
    expect(new Headers(cardApi.requests[1]!.init?.headers).get('Authorization')).toBe('Bearer access-2');
    cardApi.answerFile(path, pdf);
    expect((await file).size).toBe(pdf.byteLength);
  });

  it('ends as auth-required when the session is not renewed', async () => {
    const { cardApi, api } = setup(null);
    const file = download(api);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    cardApi.answer(path, { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    await expect(file).rejects.toBeInstanceOf(AuthRequiredError);
  });

  it('reports an answer without a statusCode, the error modal suppressed as asked', async () => {
    const { cardApi, api, hooks } = setup();
    const file = download(api);
    await vi.waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    cardApi.fail(path);
    await expect(file).rejects.toBeInstanceOf(ApiUnavailableError);
    expect(hooks.onNoStatusCode).toHaveBeenCalledWith({ path: '/statement?month=2026-11&locale=es', httpStatus: 502, suppressErrorModal: true });
  });

  it('refuses an entry that is not a file', async () => {
    const { api } = setup();
    await expect(api.download(statementsRoutes.getStatements, null)).rejects.toThrow('getStatements is not a file entry');
  });
});
