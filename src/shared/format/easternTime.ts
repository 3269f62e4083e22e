/**
 * The phone's time zone against the program's calendar (US Eastern, contract/shared/businessDays.ts).
 * A file apart from the other formats: only statements and activity ask, and the formats' file is in
 * home's first load (vite.config.ts `account-screens`).
 */
/**
 * Whether the phone keeps US Eastern time, as the statements' and the fee totals' months do: 5 hours
 * behind UTC in January and 4 in July, New York's standard and daylight time. Then a note on time zones
 * is not about it, and is left out.
 */
export function onEasternTime(): boolean {
  const year = new Date().getFullYear();
  return new Date(year, 0, 15).getTimezoneOffset() === 300 && new Date(year, 6, 15).getTimezoneOffset() === 240;
}
