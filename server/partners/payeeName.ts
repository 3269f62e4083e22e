/**
 * Spec §5: direct deposits and tax refunds are accepted only if the name matches the account holder.
 * A payer sends the name it has on file the way payroll and the IRS send it over ACH: often in capitals,
 * without accents or punctuation, last name first, with one of two surnames, or cut at 22 characters
 * (the NACHA entry's Individual Name field). So the name matches when, accents, case and punctuation
 * aside, it holds the first word of the holder's first name (a hyphenated one whole or its first part) and a word of their last name (a particle
 * such as "de" or "la" alone is not enough), in any order, whatever else it holds (a middle name, an
 * initial, a second surname). Words may be written apart or together: "Lopez-Hernandez" is
 * LOPEZHERNANDEZ, LOPEZ and HERNANDEZ; "O'Neil" is ONEIL and so is "O NEIL"; "De la Cruz" is
 * DELACRUZ and CRUZ. A name exactly 22 characters long may end in a cut word, which counts as any word
 * it begins. A nickname ("Bill" for William) does not match: the deposit goes back to the payer.
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

export function payeeNameMatches(payee: string, holder: { firstName: string; lastName: string }): boolean {
  const words = wordsOf(payee);
  const cut = payee.trim().length === achNameLength ? words.pop()?.join('') : undefined;
  // Each word in its forms, and each run of words written together.
  const joined = words.map((parts) => parts.join(''));
  const sent = new Set([...words.flatMap(formsOf), ...joined.flatMap((_, from) => joined.slice(from).map((__, length) => joined.slice(from, from + length + 1).join('')))]);
  const has = (word: string) => sent.has(word) || (cut !== undefined && word.startsWith(cut));
  // "Mary-Ann" may be sent as MARYANN or MARY, not ANN.
  const [firstWord = []] = wordsOf(holder.firstName);
  const firstName = [firstWord.join(''), ...firstWord.slice(0, 1)];
  const lastName = wordsOf(holder.lastName);
  const lastNames = [...lastName.flatMap(formsOf).filter((word) => !particles.has(word)), lastName.flat().join('')];
  return firstName.some(has) && lastNames.some((word) => word !== '' && has(word));
}
