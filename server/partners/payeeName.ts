/**
 * Spec §5: direct deposits and tax refunds are accepted only if the name matches the account holder.
 * A payer sends the name it has on file the way payroll and the IRS send it over ACH: often in capitals,
 * without accents or punctuation, last name first, with one of two surnames, or cut at 22 characters
 * (the NACHA entry's Individual Name field). So the name matches when, accents, case and punctuation
 * aside, it holds the first word of the holder's first name (a hyphenated one whole or its first part) and a word of their last name (a particle
 * such as "de" or "la" alone is not enough), in any order, whatever else it holds (a middle name, an
 * initial, a second surname). Words may be written apart or together: "Lopez-Hernandez" is
 * LOPEZHERNANDEZ, LOPEZ and HERNANDEZ; "O'Neil" is ONEIL and so is "O NEIL"; "De la Cruz" is
 * DELACRUZ and CRUZ. A name exactly 22 characters long may end in a cut word of 3 letters or more,
 * which counts as the first or the last name it begins, never both (a relative's "LOPEZ HERNANDEZ
 * JOSE M" is not María López's). A nickname ("Bill" for William) does not match: the deposit goes back to the payer.
 */
export const achNameLength = 22;

/** Surname particles, which alone say nothing about who someone is. */
const particles = new Set(['DA', 'DAS', 'DE', 'DEL', 'DER', 'DI', 'DO', 'DOS', 'DU', 'LA', 'LAS', 'LE', 'LOS', 'VAN', 'VON', 'Y']);

/** A name's words in capitals, without accents; hyphens and apostrophes join a word's letters. */
const wordsOf = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/['’ʼ]/gu, '')
    .split(/[^\p{L}-]+/u)
    .map((word) => word.split('-').filter(Boolean))
    .filter((parts) => parts.length > 0);

/** A word whole and, when hyphenated, each of its parts. */
const formsOf = (parts: string[]) => (parts.length > 1 ? [parts.join(''), ...parts] : parts);

/** The fewest letters a cut word keeps to count as the word it begins: an initial ("M") is an initial. */
const cutWordLetters = 3;

export function payeeNameMatches(payee: string, holder: { firstName: string; lastName: string }): boolean {
  const words = wordsOf(payee);
  const last = words.at(-1)?.join('') ?? '';
  const cut = payee.trim().length === achNameLength && last.length >= cutWordLetters ? (words.pop(), last) : undefined;
  // Each word in its forms, and each run of words written together.
  const joined = words.map((parts) => parts.join(''));
  const sent = new Set([...words.flatMap(formsOf), ...joined.flatMap((_, from) => joined.slice(from).map((__, length) => joined.slice(from, from + length + 1).join('')))]);
  // "Mary-Ann" may be sent as MARYANN or MARY, not ANN.
  const [firstWord = []] = wordsOf(holder.firstName);
  const firstName = [firstWord.join(''), ...firstWord.slice(0, 1)];
  const lastName = wordsOf(holder.lastName);
  const lastNames = [...lastName.flatMap(formsOf).filter((word) => !particles.has(word)), lastName.flat().join('')].filter((word) => word !== '');
  const whole = (names: string[]) => names.some((word) => sent.has(word));
  const begun = (names: string[]) => cut !== undefined && names.some((word) => word.startsWith(cut));
  // The cut word stands for one name at most: the other is there whole.
  return (whole(firstName) && (whole(lastNames) || begun(lastNames))) || (whole(lastNames) && begun(firstName));
}
