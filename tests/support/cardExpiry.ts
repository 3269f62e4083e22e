/**
 * Card expiries for tests, counted from today as the card API counts it (the date in Hawaii, UTC−10:
 * contract/identity/rules.ts `todayInEveryState`), so a test's "valid" card stays valid whatever year
 * the suite runs in. A literal such as `12/30` is past from 2031.
 */
import { todayInEveryState } from '../../contract/identity/rules.ts';

/** A month as printed on a card, MM/YY (two-digit years are 20YY). */
export const expiryOf = (month: Date) => `${String(month.getMonth() + 1).padStart(2, '0')}/${String(month.getFullYear() % 100).padStart(2, '0')}`;

/**
 * An expiry the card API and the activation form take on `now`: this month, four years on, as a new
 * card's (server/features/identity/registration.ts `virtualCardExpiry`, the sandbox processor's
 * `issuePhysicalCard`).
 */
export function futureCardExpiry(now = new Date()): string {
  const today = todayInEveryState(now);
  return expiryOf(new Date(today.getFullYear() + 4, today.getMonth(), 1));
}
