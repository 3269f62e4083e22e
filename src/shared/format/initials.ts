/**
 * Avatar initials. The spec says "two or fewer letters kept, otherwise first and last letter"; interpreted as:
 * - the name is NFC-normalized and split into words on whitespace; each word keeps only its letters and digits
 *   (so "J.R." counts as "JR" and punctuation never becomes an initial);
 * - if the whole name has two or fewer such characters, they are all kept: "Al" → "AL", "J" → "J";
 * - otherwise a name of several words gives the first letter of its first and last words: "Maria Lopez" → "ML",
 *   "Ana María de la Cruz" → "AC";
 * - and a single longer word gives its own first and last letter: "Cher" → "CR".
 * The result is uppercased; a name with no letters (empty, blank, punctuation only) gives "".
 */
export function initials(name: string): string {
  const words = name
    .normalize('NFC')
    .split(/\s+/)
    .map((word) => Array.from(word.replace(/[^\p{L}\p{N}]/gu, '')))
    .filter((chars) => chars.length > 0);

  const all = words.flat();
  if (all.length <= 2) return all.join('').toUpperCase();

  const first = words[0] ?? [];
  const last = words[words.length - 1] ?? [];
  const picked = words.length === 1 ? [first[0], first[first.length - 1]] : [first[0], last[0]];
  return picked.join('').toUpperCase();
}
