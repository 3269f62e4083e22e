/** The signed-in cardholder's own record and unlock code (spec §3 user, §7 /user, /set-unlock-code). */
import type { Address } from '../shared/address.ts';
import type { MayHaveFieldErrors, StatusAnswer } from '../shared/answers.ts';

export type User = {
  fullName: string;
  email: string;
  phone: string;
  address: Address;
  isInternal: boolean;
  canUpdateAddress: boolean;
  canUpdatePhone: boolean;
};

export type UserAnswer = StatusAnswer & { user: User };

/**
 * POST /set-unlock-code {currentUnlockCode, unlockCode} with the access token (Manage account): a new
 * code for the signed-in cardholder, who proves it with the current one.
 */
export type SetUnlockCodeRequest = { currentUnlockCode: string; unlockCode: string };

/**
 * POST /set-unlock-code answers: 200 `{0}`; 400 `{4, fieldErrors: {unlockCode | currentUnlockCode}}` a
 * code breaks a rule (`unlockCode.obvious`, `unlockCode.invalid` …); 400 `{2}` a malformed body (a
 * missing currentUnlockCode included); 401 `{101, attemptsLeft}` the current code is wrong (counted
 * with /refresh-tokens' wrong codes; at `attemptsLeft: 0` every session has ended); 401 `{104}` during
 * an unlock lockout (only /reset-unlock-code ends it), as /refresh-tokens answers then.
 */
export type SetUnlockCodeAnswer = StatusAnswer & MayHaveFieldErrors & {
  /** Present on INVALID_REFRESH_CREDENTIALS: unlock attempts left before the lockout. */
  attemptsLeft?: number;
};
