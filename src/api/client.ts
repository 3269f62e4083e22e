/**
 * The card API client: one ofetch instance, one typed function per spec §7 call.
 * Every answer carries a statusCode. REFRESH_REQUIRED and SIGN_IN_REQUIRED go to the session
 * (unlock or sign-in); an answer without a statusCode is reported and opens the error modal.
 */
import { ofetch } from 'ofetch';
import type {
  Credentials,
  ExperimentFlags,
  ExperimentsAnswer,
  HomeAnswer,
  RefreshTokensAnswer,
  SignInAnswer,
  StatusAnswer,
  UserAnswer,
} from '../../contract/api.ts';
import { StatusCode } from '../../contract/statusCodes.ts';

export const apiBase = '/api/v1';
export const requestTimeoutMs = 120_000;

export type ApiSession = {
  accessToken: string | null;
  fingerprint: string;
  deviceUUID: string;
  ebtAccountId: string | null;
};

export type ApiHooks = {
  session: () => ApiSession;
  onRefreshRequired: () => void;
  onSignInRequired: () => void;
  /** No statusCode in the answer (network failure, timeout, proxy page, server crash). */
  onNoStatusCode: (details: { path: string; httpStatus: number | null; suppressErrorModal: boolean }) => void;
  /** An answer with statusCode UNEXPECTED_ERROR (5): reported as a warning (spec §8). */
  onUnexpectedError: (details: { path: string }) => void;
};

/** The call got no usable answer; the user has already been told through the error modal. */
export class ApiUnavailableError extends Error {
  constructor(readonly path: string) {
    super(`No statusCode from ${path}`);
  }
}

/** The session needs the unlock code or a sign-in; the session chart has taken the user there. */
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

type CallOptions = {
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
  /** Use this bearer token instead of the access token; null sends none. */
  token?: string | null;
  suppressErrorModal?: boolean;
  /** The auth codes are this call's own results (sign-in, unlock, sign-out), not a session event. */
  authCodesAreResults?: boolean;
};

function hasStatusCode(data: unknown): data is StatusAnswer {
  return typeof data === 'object' && data !== null && typeof (data as StatusAnswer).statusCode === 'number';
}

export function createApi(hooks: ApiHooks, fetcher = ofetch) {
  const http = fetcher.create({ baseURL: apiBase, timeout: requestTimeoutMs, retry: 0, ignoreResponseError: true });

  async function call<T extends StatusAnswer>(path: string, options: CallOptions = {}): Promise<T> {
    const session = hooks.session();
    const headers: Record<string, string> = { Fingerprint: session.fingerprint, 'Device-UUID': session.deviceUUID };
    if (session.ebtAccountId) headers['EBT-Account-ID'] = session.ebtAccountId;
    const token = options.token === undefined ? session.accessToken : options.token;
    if (token) headers.Authorization = `Bearer ${token}`;
    const suppressErrorModal = options.suppressErrorModal ?? false;

    let data: unknown;
    let httpStatus: number | null = null;
    try {
      const response = await http.raw(path, { method: options.method ?? 'GET', body: options.body, headers });
      httpStatus = response.status;
      data = response._data;
    } catch {
      data = undefined;
    }
    if (!hasStatusCode(data)) {
      hooks.onNoStatusCode({ path, httpStatus, suppressErrorModal });
      throw new ApiUnavailableError(path);
    }
    if (data.statusCode === StatusCode.UNEXPECTED_ERROR) hooks.onUnexpectedError({ path });
    if (!options.authCodesAreResults) {
      if (data.statusCode === StatusCode.REFRESH_REQUIRED) {
        hooks.onRefreshRequired();
        throw new AuthRequiredError(data.statusCode);
      }
      if (data.statusCode === StatusCode.SIGN_IN_REQUIRED) {
        hooks.onSignInRequired();
        throw new AuthRequiredError(data.statusCode);
      }
    }
    return data as T;
  }

  async function succeeded<T extends StatusAnswer>(answer: Promise<T>): Promise<T> {
    const result = await answer;
    if (result.statusCode !== StatusCode.SUCCESS) throw new ApiRefusedError(result.statusCode);
    return result;
  }

  return {
    signIn: (credentials: Credentials) =>
      call<SignInAnswer>('/sign-in', { method: 'POST', body: credentials, token: null, authCodesAreResults: true }),
    signOut: (refreshToken: string | null) =>
      call<StatusAnswer>('/sign-out', {
        method: 'POST',
        token: refreshToken,
        suppressErrorModal: true,
        authCodesAreResults: true,
      }),
    refreshTokens: (refreshToken: string | null, unlockCode: string) =>
      call<RefreshTokensAnswer>('/refresh-tokens', {
        method: 'POST',
        body: { unlockCode },
        token: refreshToken,
        authCodesAreResults: true,
      }),
    getHome: () => succeeded(call<HomeAnswer>('/home')),
    /** The experiment config for this user; null when none exists (404). Failures only get reported. */
    getExperiments: async (isInternal: boolean): Promise<ExperimentFlags | null> => {
      const answer = await call<ExperimentsAnswer>(`/experiments?isInternal=${isInternal}`, {
        token: null,
        suppressErrorModal: true,
        authCodesAreResults: true,
      });
      if (answer.statusCode === StatusCode.NOT_ALLOWED) return null;
      return (await succeeded(Promise.resolve(answer))).flags;
    },
    getUser: (options: { suppressErrorModal?: boolean } = {}) => succeeded(call<UserAnswer>('/user', options)),
  };
}

export type Api = ReturnType<typeof createApi>;
