/**
 * New passwords are checked against passwords known from breaches and common choices (NIST SP
 * 800-63B §3.1.1.2): the ~49,000 of zxcvbn-ts's maintained list (@zxcvbn-ts/language-common), compared
 * without case, as guessers try every case. Server-side only: the list stays out of the web app.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

const common = new Set(dictionary['passwords-common']);
const longestListed = Math.max(...[...common].map((password) => password.length));

export const isCommonPassword = (password: string): boolean => {
  const typed = password.toLowerCase();
  // Also without accents: the list writes Spanish words without them (contrasena, corazon), as many type them.
  const unaccented = typed.normalize('NFD').replace(/\p{M}/gu, '');
  return [typed, unaccented].some((form) => common.has(form) || isListedWithPadding(form)) || isRepetitiveOrSequential(typed);
};

/** The letter each common substitution stands for (zxcvbn's l33t table, its usual part); `1` is tried as i and as l. */
const substitutions: Record<string, string> = { '@': 'a', '4': 'a', '8': 'b', '3': 'e', '6': 'g', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't', '+': 't' };

/**
 * The most digits and symbols a guesser adds before a listed word (`1`, `!!`, `2024`) and after it
 * (`1!`, `2024!`, `12345`, `2026!!`: a year and a symbol or two is the usual habit).
 */
const maxPadding = { before: 4, after: 6 };

/**
 * A listed password with a few digits and symbols around it, its letters perhaps swapped for
 * look-alikes: what guessers try right after the list (Password1!, p@ssw0rd1, letmein!, Summer2024!),
 * and what a composition habit makes of a listed word, so "commonly used" (§3.1.1.2) covers them too.
 * Longer padding is not a guess's (Max!8830-2291-4471, Luis#48213907): the password stands.
 */
function isListedWithPadding(typed: string): boolean {
  // Longer cannot be a listed word and its padding; the pattern below takes time growing with the
  // square of the length, which a route that called this before its length rule would feel.
  if (typed.length > longestListed + maxPadding.before + maxPadding.after) return false;
  const [, before = '', core = '', after = ''] = /^([^\p{L}]*)(.*?)([^\p{L}]*)$/su.exec(typed) ?? [];
  if (core === '' || before.length > maxPadding.before || after.length > maxPadding.after) return false;
  const plain = [...core].map((character) => substitutions[character] ?? character).join('');
  return [core, plain.replaceAll('1', 'i'), plain.replaceAll('1', 'l')].some((candidate) => common.has(candidate));
}

/**
 * §3.1.1.2's (rev. 3 §5.1.1.2's) "repetitive or sequential characters": a short unit repeated
 * (aaaaaaaa, 12121212, abcdabcd), or three quarters of it in runs of 3 or more that step by one the
 * same way or repeat (abcdefgh, 87654321, 1234abcd, aaaabbbb), so a symbol or digit added for a
 * composition rule (Abcdefg1!, !12345678!) does not pass. No list can hold these at every length.
 */
function isRepetitiveOrSequential(password: string): boolean {
  if (/^(.{1,4})\1+$/u.test(password)) return true;
  const points = Array.from(password, (character) => character.codePointAt(0)!);
  let inRuns = 0;
  let run = 1;
  let step = 0;
  const endRun = () => (inRuns += run >= 3 ? run : 0);
  for (let index = 1; index < points.length; index += 1) {
    const next = points[index]! - points[index - 1]!;
    if (Math.abs(next) <= 1 && (next === 0 || step === 0 || next === step)) {
      run += 1;
      if (next !== 0) step = next;
    } else {
      endRun();
      run = 1;
      step = 0;
    }
  }
  endRun();
  return inRuns >= points.length * 0.75;
}

/**
 * A password made of the words a guesser tries first for this cardholder, §3.1.1.2's context-specific
 * words "and derivatives thereof": the service's name, the email and its part before the @, and the
 * names, in any case, with only digits, symbols or fewer than 4 different other letters around them
 * (Providers2026, MARIA-lopez-77, xx-Demo-1990, Providersaaaa). A passphrase that only contains one
 * (remarkable-horse-77 for a Mark, Tortilla-Lopez) is the cardholder's own. Words under 4 letters are
 * left out, or a short name would refuse many passwords.
 */
export function isExpectedPassword(password: string, owner: { email: string; firstName: string; lastName: string }): boolean {
  const words = ['providers', owner.email, owner.email.split('@')[0]!, owner.firstName, owner.lastName]
    .map((word) => word.normalize('NFKC').toLowerCase().trim())
    .filter((word) => word.length >= 4)
    // Longest first: the whole email goes before its part before the @.
    .sort((a, b) => b.length - a.length);
  const typed = password.toLowerCase();
  if (!words.some((word) => typed.includes(word))) return false;
  const rest = words.reduce((left, word) => left.replaceAll(word, ''), typed);
  return new Set(rest.match(/\p{L}/gu)).size < 4;
}
