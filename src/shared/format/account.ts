/**
 * Account number (PRN) masked to its last 4 characters, shown as "Account ending in 5678": words, not
 * "••••5678", whose dots a screen reader reads out one by one. Surrounding whitespace is trimmed; an
 * input of 4 characters or fewer is returned as is.
 */
export function maskAccountNumber(prn: string): string {
  return prn.trim().slice(-4);
}
