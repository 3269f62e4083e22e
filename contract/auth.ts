/**
 * Sign-in with a texted code, unlock-code reset and password reset on the wire (spec §3 auth state and
 * reset password payload, §4 auth and password reset, §7 calls, §8 sign-in and MFA codes).
 */
import type { StatusAnswer } from './api.ts';

/**
 * POST /sign-in body. Without `code`, a cardholder who needs a texted code gets MFA_REQUIRED (105) and
 * a code is texted to the phone on file; the same call with `code` finishes the sign-in.
 */
export type SignInRequest = { email: string; password: string; code?: string };

/**
 * POST /sign-in answers:
 * - 200 `{0, access, refresh, isInternal, mustResetUnlockCode}`; `mustResetUnlockCode` after an unlock lockout.
 * - 401 `{100, retryAfterSeconds?}` wrong email or password (`retryAfterSeconds` while too many failures wait).
 * - 401 `{105, phone}` a code was texted to `phone` (masked `(XXX) XXX-1234`).
 * - 401 `{200, attemptsLeft}` wrong code; `{201, retryAfterSeconds}` too many codes or wrong codes;
 *   `{202 | 204, phone}` the phone on file cannot get texts; `{203, phone}` the text could not be sent.
 */
export type SignInWithCodeAnswer = StatusAnswer & {
  access?: string;
  refresh?: string;
  isInternal?: boolean;
  mustResetUnlockCode?: boolean;
  phone?: string;
  attemptsLeft?: number;
  retryAfterSeconds?: number;
};

/** POST /verify/ssn {email, ssn} and /verify/ssn/logged-in-refresh-token {ssn}: `{0, ssnToken}`; 401 `{4, attemptsLeft}` no match; 429 `{201, retryAfterSeconds}` too many. */
export type VerifySsnAnswer = StatusAnswer & { ssnToken?: string; attemptsLeft?: number; retryAfterSeconds?: number };

/** POST /reset-unlock-code {ssnToken, unlockCode} with the refresh token: 200 `{0, access, refresh, isInternal}`. */
export type ResetUnlockCodeAnswer = StatusAnswer & { access?: string; refresh?: string; isInternal?: boolean };

/** POST /change-password {email, ssn, password}: `{0}` on success (spec §7 "true on SUCCESS"). */
export type ChangePasswordRequest = { email: string; ssn: string; password: string };

/** POST /set-unlock-code {unlockCode} with the access token (Manage account): a new code for the signed-in cardholder. */
export type SetUnlockCodeRequest = { unlockCode: string };

/**
 * POST /set-unlock-code answers: 200 `{0}`; 400 `{4, fieldErrors: {unlockCode}}` the code breaks a rule
 * (`unlockCode.obvious` …); 400 `{2}` a malformed body; 403 `{3}` during an unlock lockout (only
 * /reset-unlock-code ends it).
 */
export type SetUnlockCodeAnswer = StatusAnswer & { fieldErrors?: Record<string, string> };
