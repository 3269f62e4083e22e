/**
 * The card API client: one ofetch instance, one typed function per spec §7 call.
 * Every answer carries a statusCode. REFRESH_REQUIRED and SIGN_IN_REQUIRED go to the session
 * (the auth modal, or unlock or sign-in); a call made with the access token then waits, and is sent
 * once more with the new token if the user authenticates again and the interrupted work resumes.
 * An answer without a statusCode is reported and opens the error modal.
 */
import { ofetch } from 'ofetch';
import type {
  ExperimentFlags,
  ExperimentsAnswer,
  HomeAnswer,
  RefreshTokensAnswer,
  StatusAnswer,
  UserAnswer,
} from '../../contract/api.ts';
import type { ChangePasswordRequest, ResetUnlockCodeAnswer, SignInRequest, SignInWithCodeAnswer, VerifySsnAnswer } from '../../contract/auth.ts';
import {
  RegistrationResult,
  type LegalAddress,
  type PhoneInUseAnswer,
  type RegisterAnswer,
  type RegistrationPayload,
  type RequestVerificationAnswer,
  type VerifyAddressAnswer,
  type VerifyEmailAnswer,
  type VerifyPhoneAnswer,
} from '../../contract/registration.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import type { RegisterOutcome } from '../../machines/identity/registration.ts';

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

/** The call got no usable answer; the user has already been told through the error modal. */
export class ApiUnavailableError extends Error {
  constructor(readonly path: string) {
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

type CallOptions = {
  method?: 'GET' | 'POST';
  body?: Record<string, unknown>;
  /** Use this bearer token instead of the access token; null sends none. */
  token?: string | null;
  suppressErrorModal?: boolean;
  /** The auth codes are this call's own results (sign-in, unlock, sign-out), not a session event. */
  authCodesAreResults?: boolean;
  headers?: Record<string, string>;
};

function hasStatusCode(data: unknown): data is StatusAnswer {
  return typeof data === 'object' && data !== null && typeof (data as StatusAnswer).statusCode === 'number';
}

export function createApi(hooks: ApiHooks, fetcher = ofetch) {
  const http = fetcher.create({ baseURL: apiBase, timeout: requestTimeoutMs, retry: 0, ignoreResponseError: true });

  /** An answer with a statusCode, and the HTTP status it came with (some statusCodes mean different things per status). */
  async function request<T extends StatusAnswer>(
    path: string,
    options: CallOptions = {},
    isRetry = false,
  ): Promise<{ answer: T; httpStatus: number | null }> {
    const session = hooks.session();
    const headers: Record<string, string> = { ...options.headers, Fingerprint: session.fingerprint, 'Device-UUID': session.deviceUUID };
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
    if (!options.authCodesAreResults && isAuthStatusCode(data.statusCode)) {
      const renewed = await hooks.onAuthRequired(data.statusCode);
      // Only a call made with the session's access token is sent again, once, with the new one
      // (the server refused it before doing anything; money calls keep their Idempotency-Key).
      if (renewed && options.token === undefined && !isRetry) return request<T>(path, options, true);
      throw new AuthRequiredError(data.statusCode);
    }
    return { answer: data as T, httpStatus };
  }

  async function call<T extends StatusAnswer>(path: string, options: CallOptions = {}): Promise<T> {
    return (await request<T>(path, options)).answer;
  }

  /** Registration calls are anonymous: no bearer token, and no auth codes to act on. */
  const anonymous = { method: 'POST', token: null, authCodesAreResults: true } as const;

  /**
   * POST /register (spec §7, 403 expected). The HTTP status tells the results apart: statusCode 2 on
   * a 403 is CIP_TAKEN, while on a 400 it is INVALID_PARAMETERS (a refusal, not a result).
   */
  async function register(payload: RegistrationPayload, companionToken: string | null = null): Promise<RegisterOutcome> {
    // Linking the companion user (providersUuid) takes that user's own companion token.
    const headers = companionToken ? { 'Companion-Authorization': `Bearer ${companionToken}` } : undefined;
    const { answer, httpStatus } = await request<RegisterAnswer & StatusAnswer>('/register', { ...anonymous, body: payload, headers });
    const code: number = answer.statusCode;
    if (httpStatus === 200 && code === RegistrationResult.SUCCESS && answer.access && answer.refresh) {
      return { statusCode: StatusCode.SUCCESS, access: answer.access, refresh: answer.refresh, isInternal: answer.isInternal ?? false };
    }
    if (httpStatus === 403 && code === RegistrationResult.APPLICATION_DENIED) return { statusCode: RegistrationResult.APPLICATION_DENIED };
    if (httpStatus === 403 && code === RegistrationResult.CIP_TAKEN) return { statusCode: RegistrationResult.CIP_TAKEN };
    if (httpStatus === 400 && code === StatusCode.FAILED_VALIDATION) {
      return { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: answer.fieldErrors ?? {} };
    }
    throw new ApiRefusedError(answer.statusCode);
  }

  async function succeeded<T extends StatusAnswer>(answer: Promise<T>): Promise<T> {
    const result = await answer;
    if (result.statusCode !== StatusCode.SUCCESS) throw new ApiRefusedError(result.statusCode);
    return result;
  }

  return {
    /**
     * POST /sign-in {email, password, code?} (contract/auth.ts). Every answer is a result: 100, 105 and
     * the MFA codes 200-204 come with HTTP 401 or 429.
     */
    signIn: ({ email, password, code }: SignInRequest) =>
      call<SignInWithCodeAnswer>('/sign-in', {
        method: 'POST',
        body: code === undefined ? { email, password } : { email, password, code },
        token: null,
        authCodesAreResults: true,
      }),
    /** POST /verify/ssn/logged-in-refresh-token {ssn} with the refresh token: `{0, ssnToken}`, 401 `{4, attemptsLeft}`, 429 `{201}`. */
    verifySsnWithRefreshToken: (refreshToken: string | null, ssn: string) =>
      call<VerifySsnAnswer>('/verify/ssn/logged-in-refresh-token', { method: 'POST', body: { ssn }, token: refreshToken }),
    /** POST /reset-unlock-code {ssnToken, unlockCode} with the refresh token: `{0, access, refresh, isInternal}`. */
    resetUnlockCode: (refreshToken: string | null, ssnToken: string, unlockCode: string) =>
      call<ResetUnlockCodeAnswer>('/reset-unlock-code', { method: 'POST', body: { ssnToken, unlockCode }, token: refreshToken }),
    /** POST /verify/ssn {email, ssn} (password reset, anonymous): `{0, ssnToken}`, 401 `{4, attemptsLeft}`, 429 `{201}`. */
    verifySsn: (email: string, ssn: string) => call<VerifySsnAnswer>('/verify/ssn', { ...anonymous, body: { email, ssn } }),
    /** POST /change-password {email, ssn, password} (anonymous): `{0}` on success. */
    changePassword: ({ email, ssn, password }: ChangePasswordRequest) =>
      call<StatusAnswer>('/change-password', { ...anonymous, body: { email, ssn, password } }),
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
    /**
     * POST /set-unlock-code {unlockCode} with the access token. Every statusCode answer is a result for
     * the chart: 0 saved, 400 `{4, fieldErrors}` the code breaks a rule, anything else a failure
     * (contract/auth.ts SetUnlockCodeAnswer).
     */
    setUnlockCode: (unlockCode: string) =>
      call<StatusAnswer & { fieldErrors?: Record<string, string> }>('/set-unlock-code', { method: 'POST', body: { unlockCode } }),
    /** SUCCESS when an account already uses the email, NOT_ALLOWED when it is free. */
    verifyEmail: (email: string) => call<VerifyEmailAnswer>('/verify/email', { ...anonymous, body: { email } }),
    phoneNumberInUse: (phone: string) => call<PhoneInUseAnswer>('/phone-number-in-use', { ...anonymous, body: { phone } }),
    /** Texts a 6-digit code; 201-204 are results (too many codes, invalid phone, not sent, landline). */
    requestVerification: (phone: string) => call<RequestVerificationAnswer>('/request-verification', { ...anonymous, body: { phone } }),
    verifyPhone: (phone: string, code: string) => call<VerifyPhoneAnswer>('/verify-phone', { ...anonymous, body: { phone, code } }),
    /** The legal address; 300-307 are results. */
    verifyAddress: (address: LegalAddress) =>
      call<VerifyAddressAnswer>('/verify-address', {
        ...anonymous,
        body: {
          street1: address.street1,
          street2: address.street2,
          city: address.city,
          state: address.state,
          zip: address.zip,
          addressType: 'legal',
        },
      }),
    register,
  };
}

export type Api = ReturnType<typeof createApi>;
