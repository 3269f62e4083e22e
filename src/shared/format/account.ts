/** Shown in place of the hidden characters; always four, so the mask does not reveal the number's length. */
const MASK = '••••';

/**
 * Account number (PRN) masked to its last 4 characters, e.g. "1234567812345678" → "••••5678".
 * Surrounding whitespace is trimmed; an input of 4 characters or fewer has nothing to hide and is returned as is.
 */
export function maskAccountNumber(prn: string): string {
  const value = prn.trim();
  return value.length <= 4 ? value : `${MASK}${value.slice(-4)}`;
}
