/** The signed-in cardholder's own record and unlock code (spec §3 user, §7 /user, /set-unlock-code). */
import type { Address } from '../shared/address.ts';
import type { FieldErrors, StatusAnswer } from '../shared/answers.ts';

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

/** POST /set-unlock-code {unlockCode} with the access token (Manage account): a new code for the signed-in cardholder. */
export type SetUnlockCodeRequest = { unlockCode: string };

/**
 * POST /set-unlock-code answers: 200 `{0}`; 400 `{4, fieldErrors: {unlockCode}}` the code breaks a rule
 * (`unlockCode.obvious` …); 400 `{2}` a malformed body; 403 `{3}` during an unlock lockout (only
 * /reset-unlock-code ends it).
 */
export type SetUnlockCodeAnswer = StatusAnswer & { fieldErrors?: FieldErrors };
