/**
 * Choosing a new unlock code (spec §5 "PIN and unlock code"): 4 digits, not an obvious one, typed
 * twice. The rules are contract/rules.ts's; this is how the charts that ask for a new code
 * (unlock-code reset, change unlock code) combine them into what each field shows.
 */
import { checkNewUnlockCode, checkUnlockCodeConfirmation, type ValidationMessage } from '../../contract/rules.ts';

export type NewUnlockCodes = { unlockCode: string; unlockCodeConfirmation: string };

export type NewUnlockCodeErrors = Partial<Record<keyof NewUnlockCodes, ValidationMessage>>;

/** The new code's problem, else the confirmation's (a mismatch is only worth saying about a good code). */
export function newUnlockCodeErrors({ unlockCode, unlockCodeConfirmation }: NewUnlockCodes): NewUnlockCodeErrors {
  const code = checkNewUnlockCode(unlockCode);
  if (code) return { unlockCode: code };
  const confirmation = checkUnlockCodeConfirmation(unlockCode, unlockCodeConfirmation);
  return confirmation ? { unlockCodeConfirmation: confirmation } : {};
}
