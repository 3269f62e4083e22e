/**
 * The card API client: one ofetch instance, one typed function per spec §7 call, each made from its
 * route table entry (contract/<feature>/routes.ts) by `call`.
 * Every answer carries a statusCode. REFRESH_REQUIRED and SIGN_IN_REQUIRED go to the session
 * (the auth modal, or unlock or sign-in); a call made with the access token then waits, and is sent
 * once more with the new token if the user authenticates again and the interrupted work resumes.
 * An answer without a statusCode is reported and opens the error modal.
 */
import { ofetch } from 'ofetch';
import type { SetUnlockCodeRequest } from '../../../contract/account/types.ts';
// Each table the client's own calls need, not contract/routes.ts: that would put every feature's
// table in every screen's first load (a feature's calls live with the feature).
import { accountRoutes as account } from '../../../contract/account/routes.ts';
import { experimentsRoutes as experiments } from '../../../contract/experiments/routes.ts';
import { homeRoutes as home } from '../../../contract/home/routes.ts';
import { sessionRoutes as session } from '../../../contract/session/routes.ts';
import type { StatusAnswer } from '../../../contract/shared/answers.ts';
import { type AnswerOf, cardApiBase, fillPath, type RequestOf, type Route } from '../../../contract/shared/route.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { noteServerAnswered } from './serverAnswered.ts';
import type { ExperimentFlags } from '../../../contract/experiments/types.ts';
import type { ChangePasswordRequest, SignInRequest } from '../../../contract/session/types.ts';

export const apiBase = cardApiBase;
export const requestTimeoutMs = 120_000;

export type ApiSession = {
  accessToken: string | null;
  /**
   * Set while locked too (no access token then): the unlock code gets a new access token. Only a
   * session's: none after a refused application (createApp gives its marker as none).
   */
  refreshToken?: string | null;
  fingerprint: string;
  deviceUUID: string;
  ebtAccountId: string | null;
  /** The app's language: texts and emails to the cardholder lead with it (server/shared/readersLanguage.ts). */
  locale: Locale;
};

export type ApiHooks = {
  session: () => ApiSession;
  /**
   * REFRESH_REQUIRED or SIGN_IN_REQUIRED: resolves with the new access token once the interrupted work
   * resumes (same account authenticated again), or null when it was given up.
   */
  onAuthRequired: (statusCode: AuthStatusCode) => Promise<string | null>;
  /** No statusCode in the answer (network failure, timeout, proxy page, server crash). */
  onNoStatusCode: (details: { path: string; httpStatus: number | null; suppressErrorModal: boolean }) => void;
  /** An answer with statusCode UNEXPECTED_ERROR (5): reported as a warning (spec §8). */
  onUnexpectedError: (details: { path: string }) => void;
};

/**
 * The call got no usable answer; the user has already been told through the error modal. `httpStatus`
 * is null when no answer came at all (the request failed on the way or timed out).
 */
export class ApiUnavailableError extends Error {
  constructor(
    readonly path: string,
    readonly httpStatus: number | null,
  ) {
    super(`No statusCode from ${path}`);
  }
}

export type AuthStatusCode = typeof StatusCode.REFRESH_REQUIRED | typeof StatusCode.SIGN_IN_REQUIRED;

const isAuthStatusCode = (code: number): code is AuthStatusCode =>
  code === StatusCode.REFRESH_REQUIRED || code === StatusCode.SIGN_IN_REQUIRED;

/** The session needed the unlock code or a sign-in, and the call was not resumed. */
export class AuthRequiredError extends Error {
  constructor(readonly statusCode: StatusCode) {
    super(`Authentication required (${statusCode})`);
  }
}

/** A call answered with a statusCode the caller does not treat as a result. */
export class ApiRefusedError extends Error {
  constructor(readonly statusCode: StatusCode) {
    super(`Refused with statusCode ${statusCode}`);
  }
}

type SendOptions = {
  /** The bearer token for a refresh-token or companion-token call (null sends none). */
  token?: string | null;
  suppressErrorModal?: boolean;
  /** The auth codes are this call's own results (sign-in, unlock, sign-out), not a session event. */
  authCodesAreResults?: boolean;
  headers?: Record<string, string>;
  /** Values of the entry's `{name}` path parameters (GET /card/image-url/{id}). */
  pathParams?: Record<string, string>;
};

type CallOptions = SendOptions & {
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
  /** A file entry (GET /statement): a 2xx answer that is not JSON is the file; any other answer is JSON as ever. */
  file?: boolean;
};

/** What a request got: an answer with a statusCode, or (a file entry only) the file. */
type Received<T> = { answer: T; httpStatus: number | null; file?: undefined } | { answer?: undefined; httpStatus: number; file: Blob };

/** Any answer with a numeric statusCode (POST /register's results 1 and 2 are not spec §8 codes). */
type CodedAnswer = { statusCode: number };

function hasStatusCode(data: unknown): data is CodedAnswer {
  return typeof data === 'object' && data !== null && typeof (data as CodedAnswer).statusCode === 'number';
}

/** The answer when it is SUCCESS; any other statusCode is a refusal (ApiRefusedError). */
export async function succeeded<T extends StatusAnswer>(answer: Promise<T>): Promise<T> {
  const result = await answer;
  if (result.statusCode !== StatusCode.SUCCESS) throw new ApiRefusedError(result.statusCode);
  return result;
}

/** A GET entry's input as its query string. */
const queryOf = (route: Route, input: unknown) =>
  route.method === 'GET' && input ? `?${new URLSearchParams(input as Record<string, string>)}` : '';

/** Whose token a call carries: the session's access token, none (anonymous: its auth codes are results), or the one given. */
const byCaller = (route: Route): SendOptions =>
  route.caller === 'accessToken' ? {} : route.caller === 'anonymous' ? { token: null, authCodesAreResults: true } : { token: null };

export function createApi(hooks: ApiHooks, fetcher = ofetch) {
  const http = fetcher.create({ baseURL: apiBase, timeout: requestTimeoutMs, retry: 0, ignoreResponseError: true });

  /**
   * An answer with a statusCode, and the HTTP status it came with (some statusCodes mean different
   * things per status); for a file entry, the file when the server sends one.
   */
  async function request<T extends CodedAnswer>(path: string, options: CallOptions = {}, isRetry = false): Promise<Received<T>> {
    const session = hooks.session();
    const headers: Record<string, string> = {
      ...options.headers,
      Fingerprint: session.fingerprint,
      'Device-UUID': session.deviceUUID,
      'Accept-Language': session.locale,
    };
    if (session.ebtAccountId) headers['EBT-Account-ID'] = session.ebtAccountId;
    const token = options.token === undefined ? session.accessToken : options.token;
    // Locked (the access token dropped, the unlock code asked for): a call needing the access token
    // waits for the new one, as a refused call would, instead of going without. The server answers a
    // missing token SIGN_IN_REQUIRED, which ends the session: a call sent just as the session locked
    // (home's own, after its early call had the answer) turned the unlock into a sign-in.
    if (options.token === undefined && !token && session.refreshToken && !isRetry) {
      const renewed = await hooks.onAuthRequired(StatusCode.REFRESH_REQUIRED);
      if (renewed) return request<T>(path, options, true);
      throw new AuthRequiredError(StatusCode.REFRESH_REQUIRED);
    }
    if (token) headers.Authorization = `Bearer ${token}`;
    const suppressErrorModal = options.suppressErrorModal ?? false;

    let data: unknown;
    let httpStatus: number | null = null;
    try {
      const init = { method: options.method ?? 'GET', body: options.body, headers };
      if (options.file) {
        const response = await http.raw<Blob, 'blob'>(path, { ...init, responseType: 'blob' });
        httpStatus = response.status;
        const json = (response.headers.get('content-type') ?? '').includes('json');
        if (response.ok && !json && response._data) {
          noteServerAnswered(true);
          return { httpStatus, file: response._data };
        }
        data = json && response._data ? JSON.parse(await response._data.text()) : undefined;
      } else {
        const response = await http.raw(path, init);
        httpStatus = response.status;
        data = response._data;
      }
    } catch {
      data = undefined;
    }
    noteServerAnswered(httpStatus !== null);
    if (!hasStatusCode(data)) {
      hooks.onNoStatusCode({ path, httpStatus, suppressErrorModal });
      throw new ApiUnavailableError(path, httpStatus);
    }
    if (data.statusCode === StatusCode.UNEXPECTED_ERROR) hooks.onUnexpectedError({ path });
    if (!options.authCodesAreResults && isAuthStatusCode(data.statusCode)) {
      const renewed = await hooks.onAuthRequired(data.statusCode);
      // Only a call made with the session's access token is sent again, once, with the new one
      // (the server refused it before doing anything; money calls keep their Idempotency-Key).
      if (renewed && options.token === undefined && !isRetry) return request<T>(path, options, true);
      throw new AuthRequiredError(data.statusCode);
    }
    return { answer: data as T, httpStatus };
  }

  /**
   * One call of a route table entry. The entry says where it goes and whose token it carries: an
   * access-token call takes the session's (and may wait for a new one), an anonymous call none (its
   * auth codes are results), a refresh-token or companion-token call the one given.
   */
  async function send<R extends Route>(
    route: R,
    input: RequestOf<R>,
    options: SendOptions = {},
  ): Promise<{ answer: AnswerOf<R>; httpStatus: number | null }> {
    const received = await request<CodedAnswer>(`${fillPath(route.path, options.pathParams ?? {})}${queryOf(route, input)}`, {
      ...byCaller(route),
      ...options,
      method: route.method,
      body: route.method === 'POST' && input ? (input as Record<string, unknown>) : undefined,
    });
    if (received.file) throw new ApiUnavailableError(route.path, received.httpStatus);
    return { answer: received.answer as AnswerOf<R>, httpStatus: received.httpStatus };
  }

  /**
   * A file entry's file (contract/shared/route.ts `file`: GET /statement's PDF), fetched as `call`
   * fetches: with the entry's token (an access-token call may wait for a new one under the auth
   * modal), an answer without a statusCode reported (and the error modal unless suppressed). A
   * statusCode answer (404 `{3}`) is a refusal: ApiRefusedError.
   */
  async function download<R extends Route>(route: R, input: RequestOf<R>, options: SendOptions = {}): Promise<Blob> {
    if (!route.file || route.method !== 'GET') throw new Error(`${route.name} is not a file entry`);
    const received = await request<CodedAnswer>(`${route.path}${queryOf(route, input)}`, { ...byCaller(route), ...options, method: 'GET', file: true });
    if (received.file) return received.file;
    throw new ApiRefusedError(received.answer.statusCode as StatusCode);
  }

  async function call<R extends Route>(route: R, input: RequestOf<R>, options: SendOptions = {}): Promise<AnswerOf<R>> {
    return (await send(route, input, options)).answer;
  }

  return {
    /** One call of a route table entry: what a feature's own calls are made from (e.g. src/features/identity/registrationCalls.ts). */
    call,
    /** The same, with the HTTP status of the answer, for calls whose results differ by status. */
    send,
    /** A file entry's file as a Blob (GET /statement's PDF). */
    download,
    /** Every answer is a result: 100, 105 and the MFA codes 200-204 come with HTTP 401 or 429. */
    signIn: ({ email, password, code }: SignInRequest) =>
      call(session.signIn, code === undefined ? { email, password } : { email, password, code }),
    resetUnlockCode: (refreshToken: string | null, ssnToken: string, unlockCode: string) =>
      call(session.resetUnlockCode, { ssnToken, unlockCode }, { token: refreshToken }),
    /** Password reset, first step: `{0}` whether or not the email has an account; 429 `{201}`. */
    sendResetCode: (email: string) => call(session.sendResetCode, { email }),
    /** `{0, mfaToken}`, `{200}` any other code, 429 `{201}`. */
    verifyResetCode: (email: string, code: string) => call(session.verifyResetCode, { email, code }),
    changePassword: ({ email, ssn, password, mfaToken }: ChangePasswordRequest) => call(session.changePassword, { email, ssn, password, mfaToken }),
    signOut: (refreshToken: string | null) =>
      call(session.signOut, null, { token: refreshToken, suppressErrorModal: true, authCodesAreResults: true }),
    refreshTokens: (refreshToken: string | null, unlockCode: string) =>
      call(session.refreshTokens, { unlockCode }, { token: refreshToken, authCodesAreResults: true }),
    /** `suppressErrorModal`: a screen that has something to show without an answer (the last-known copy) says so itself. */
    getHome: (options: { suppressErrorModal?: boolean } = {}) => succeeded(call(home.getHome, null, options)),
    /** The experiment config for this user; null when none exists (404). Failures only get reported. */
    getExperiments: async (isInternal: boolean): Promise<ExperimentFlags | null> => {
      const answer = await call(experiments.getExperiments, { isInternal: isInternal ? 'true' : 'false' }, { suppressErrorModal: true });
      if (answer.statusCode === StatusCode.NOT_ALLOWED) return null;
      return (await succeeded(Promise.resolve(answer))).flags;
    },
    getUser: (options: { suppressErrorModal?: boolean } = {}) => succeeded(call(account.getUser, null, options)),
    /**
     * Every statusCode answer is a result for the chart: 0 saved, 400 `{4, fieldErrors}` a code
     * breaks a rule, 401 `{101, attemptsLeft}` the current code is wrong, anything else a failure.
     */
    setUnlockCode: ({ currentUnlockCode, unlockCode }: SetUnlockCodeRequest) =>
      call(account.setUnlockCode, { currentUnlockCode, unlockCode }),
  };
}

export type Api = ReturnType<typeof createApi>;
