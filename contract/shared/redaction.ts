/**
 * Scrubs credentials, card data and email addresses out of what the app reports about itself (error
 * reports and analytics). The web app redacts before sending and the card API again before storing, so
 * this module is shared and has no dependencies. It errs on the side of redacting too much.
 */
export const redactedMark = '[redacted]';

/**
 * JWTs: a base64url JSON header (`{"` encodes as `eyJ`), a payload and an optional signature. It starts
 * where a token can (not inside a run of base64url): tried from every `eyJ` of a run, a 64 KB analytics
 * body of them took a second.
 */
const jwtPattern = /(?<![\w-])eyJ[\w-]*\.[\w-]+\.[\w-]*/g;
/** 13–19 digits, spaces or dashes allowed between them: a full card number (PAN). */
const cardNumberPattern = /(^|\D)(\d(?:[ -]?\d){12,18})(?!\d)/g;
/** SSN-like: ###-##-#### or nine digits in a row. */
const ssnPattern = /(^|\D)(\d{3}-\d{2}-\d{4}|\d{9})(?!\d)/g;
/** Long random tokens (refresh tokens, API keys): 32+ base64url characters in a row. */
const longTokenPattern = /[\w-]{32,}/g;
/**
 * An email address (RFC 5322 §3.4.1 addr-spec: a dot-atom or quoted local part, then a domain name or a
 * literal), its `@` perhaps percent-encoded as in a URL's query. Dots go anywhere in the local part
 * (`john..doe@`, `ana.@`: obsolete forms some mail systems still take), so none is left half-shown.
 * `?`, `=` and `&`, allowed in a local part but seldom used, are left out, so a query's
 * `?email=ana%40example.com` keeps its name. Not `react@19.3.1`, nor a Firefox stack frame
 * (`render@https://…`): a domain here ends in a name of letters (or punycode), after a dot.
 * Linear: a match starts only where a local part can (the lookbehind), so a long run of letters with no
 * `@` is tried once, not once from each letter (seconds on a 64 KB analytics body); a quoted local part
 * or a literal is at most 64 characters and a label 63 (RFC 5321 §4.5.3.1), so one left open is not
 * read to the end from each of its quotes or brackets.
 */
const emailPattern =
  /(?<![\p{L}\p{N}!#$%'*+^_`{|}~.-])(?:"(?:[^"\\\r\n]|\\.){1,64}"|[\p{L}\p{N}!#$%'*+^_`{|}~.-]+)(?:@|%40)(?:\[[^\]\s]{1,64}\]|(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:xn--[a-z\d-]+|\p{L}{2,}))/giu;
/** Record ids (card, device, user uuids) identify things but open nothing, so they are kept. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function redactText(text: string): string {
  return text
    .replace(emailPattern, redactedMark)
    .replace(jwtPattern, redactedMark)
    .replace(cardNumberPattern, `$1${redactedMark}`)
    .replace(ssnPattern, `$1${redactedMark}`)
    .replace(longTokenPattern, (run) => (uuidPattern.test(run) ? run : redactedMark));
}

/** redactText on every string, however deeply nested (route query and params, for example). */
export function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  // A card number or SSN can arrive as a number too.
  if (typeof value === 'number' && Number.isInteger(value)) return redactText(String(value)) === String(value) ? value : redactedMark;
  if (Array.isArray(value)) return value.map(redactStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, redactStrings(inner)]));
  }
  return value;
}

const sensitiveKey = /token|password|ssn|secret|unlock|code|(^|[_-])pan([_-]|$)|card[_-]?number|authorization/;
/** Outcome codes (spec §8 statusCodes, the PIN page's result codes) are what a report is about. */
const outcomeKey = /^(status|error|result)[_-]code$/;

function isSensitiveKey(key: string): boolean {
  // camelCase → snake_case, so `cardPan` reads as a word "pan" and `company` does not.
  const words = key.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();
  return sensitiveKey.test(words) && !outcomeKey.test(words);
}

/** Values under sensitive-looking keys become `[redacted]`; every other string goes through redactText. */
export function redactContext<V>(record: Record<string, V>): Record<string, V | string> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, isSensitiveKey(key) ? redactedMark : (redactStrings(value) as V)]),
  );
}

/** A field whose neighbours are the rest of a credentials form (what was typed beside a password). */
const secretFieldKey = /password|passcode|unlock|(^|_)(pw|pwd|pin)(_|$)/;
/** Keys of codes and PINs that sensitiveKey's words do not name. */
const shortSecretKey = /(^|_)(pw|pwd|pin|otp|cvv|cvc|passcode)(_|$)/;
/**
 * Keys of personal data analytics never needs: who someone is and where they live (a registration
 * link's `profile` query holds name, date of birth, email, phone and address).
 */
const personalKey = /(^|_)(profile|dob|birth|birthday|birthdate|email|phone|street\d?|address|address_legal|first_name|last_name|middle_name|full_name|zip)(_|$)/;
/** A string that is nothing but 4 to 8 digits: a texted code, unlock code or PIN, whatever its key. */
const codeLikeText = /^\s*\d{4,8}\s*$/;

/**
 * Analytics properties, however deeply nested, judged by content as well as by key: values under
 * sensitive-looking keys (`pw`, `code`, `unlock`…) or personal ones (`profile`, `email`, `dob`…), every value beside a password-like field (the rest
 * of a credentials form), strings that are only a code's digits, and what redactText finds elsewhere.
 */
export function redactAnalytics(value: unknown): unknown {
  if (typeof value === 'string') return codeLikeText.test(value) ? redactedMark : redactText(value);
  if (Array.isArray(value)) return value.map(redactAnalytics);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const words = (key: string) => key.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase();
    const besideSecret = entries.some(([key]) => secretFieldKey.test(words(key)));
    return Object.fromEntries(
      entries.map(([key, inner]) => [
        key,
        besideSecret || isSensitiveKey(key) || shortSecretKey.test(words(key)) || personalKey.test(words(key)) ? redactedMark : redactAnalytics(inner),
      ]),
    );
  }
  return redactStrings(value);
}
