/**
 * Sign-in (with a texted code when needed), unlock, sign-out, unlock-code reset and password reset on
 * the wire (spec §3 auth state and reset password payload, §4, §7, §8 sign-in and MFA codes).
 */
import type { MayBeTooMany, MayHaveFieldErrors, SessionTokens, StatusAnswer } from '../shared/answers.ts';

/**
 * POST /sign-in body. Without `code`, a cardholder who needs a texted code gets MFA_REQUIRED (105) and
 * a code is texted to the phone on file; the same call with `code` finishes the sign-in.
 */
export type Credentials = { email: string; password: string };
export type SignInRequest = Credentials & { code?: string };

/**
 * POST /sign-in (and /providers/sign-in) answers:
 * - 200 `{0, access, refresh, isInternal, mustResetUnlockCode}`; `mustResetUnlockCode` after an unlock lockout.
 * - 401 `{100, retryAfterSeconds?}` wrong email or password (`retryAfterSeconds` while too many failures wait).
 * - 401 `{105, phone}` a code was texted to `phone` (masked `(XXX) XXX-1234`).
 * - 401 `{200, attemptsLeft}` wrong code; 429 `{201, retryAfterSeconds}` too many codes or wrong codes;
 *   `{202 | 204, phone}` the phone on file cannot get texts; `{203, phone}` the text could not be sent.
 */
export type SignInAnswer = StatusAnswer &
  Partial<SessionTokens> &
  MayBeTooMany & {
    mustResetUnlockCode?: boolean;
    phone?: string;
    attemptsLeft?: number;
  };

export type RefreshTokensRequest = { unlockCode: string };

export type RefreshTokensAnswer = StatusAnswer &
  Partial<SessionTokens> & {
    /** Present on INVALID_REFRESH_CREDENTIALS: unlock attempts left before lockout. */
    attemptsLeft?: number;
  };

/** POST /reset-unlock-code {ssnToken, unlockCode} with the refresh token: 200 `{0, access, refresh, isInternal}`. */
export type ResetUnlockCodeRequest = { ssnToken: string; unlockCode: string };
export type ResetUnlockCodeAnswer = StatusAnswer & Partial<SessionTokens> & MayHaveFieldErrors;

/**
 * POST /reset-password {email}: `{0}` whether or not an account uses the email (a stranger learns
 * nothing); a code is texted to the phone on file only when one does. 429 `{201}` too many from this client.
 */
export type SendResetCodeRequest = { email: string };
export type SendResetCodeAnswer = StatusAnswer & MayBeTooMany & MayHaveFieldErrors;

/**
 * POST /verify/reset-code {email, code}: `{0, mfaToken}` when the code is the one texted for the
 * email's account (the token proves the phone to /change-password); `{200, attemptsLeft}` any other
 * code, for an email without an account too; 429 `{201, retryAfterSeconds}` after 5 wrong codes;
 * 400 `{4, fieldErrors: {email}}` an email that breaks its rule.
 */
export type VerifyResetCodeRequest = { email: string; code: string };
export type VerifyResetCodeAnswer = StatusAnswer & MayBeTooMany & MayHaveFieldErrors & { mfaToken?: string; attemptsLeft?: number };

/**
 * POST /change-password {email, ssn, password, mfaToken}: `{0}` on success (spec §7 "true on SUCCESS").
 * The spec's payload plus `mfaToken` from /verify/reset-code: the SSN alone is often leaked, so the
 * phone on file must also be shown (400 `{4, fieldErrors: {mfaToken: 'phone.unverified'}}` without it).
 */
export type ChangePasswordRequest = { email: string; ssn: string; password: string; mfaToken: string };
/**
 * Its answer besides `{0}`: 400 `{4, fieldErrors}` a rule broken; 401 `{4, attemptsLeft}` a wrong SSN
 * (counted with /verify/ssn's); 429 `{201, retryAfterSeconds}` too many wrong SSNs.
 */
export type ChangePasswordAnswer = StatusAnswer & MayHaveFieldErrors & MayBeTooMany & { attemptsLeft?: number };
