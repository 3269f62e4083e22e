/**
 * The identity rules of spec §5 (registration's personal information, phone and address; the SSN the
 * resets ask for), checked by the forms and by the card API like contract/rules.ts. A file of their own
 * so sign-in, a usual first screen on a slow phone, does not load them (docs/performance.md).
 */
import { type Check, checkNewEmail, codePoints, digitsOf, phoneDigits, text, ValidationMessage } from '../rules.ts';
import { type Address, stateCodes } from '../shared/address.ts';

/**
 * A name as checked, sent and stored: Unicode NFKC (UAX #15) and trimmed. NFKC composes (`e` +
 * combining acute, as some keyboards and pasted text give it, is the one letter `é`) and also spells
 * compatibility look-alikes as the letters they stand for: mathematical (`𝔐𝔞𝔯𝔦𝔞`) and full-width
 * (`Ｍａｒｉａ`) letters, ligatures (`ﬁ`), are `Maria` and `fi`, so a name that looks like another is
 * that other name. (Until 2026-12-01 NFC kept them as typed, and they passed the check.)
 */
export const normaliseName = (value: string) => value.normalize('NFKC').trim();

/**
 * Names: letters (accented too), spaces, hyphens and apostrophes (spec §5); at most 50 characters. The
 * letters of many scripts take combining marks that no single character replaces, even after NFKC
 * (Devanagari's vowel signs and virama: अनिल, Tamil: தமிழ்), so up to 3 marks may follow each letter.
 * Not the marks that show nothing (the grapheme joiner, variation selectors) nor the Hangul fillers,
 * a letter that shows nothing: a name that looks like "Maria" but is not would pass name matching.
 */
const nameLetter = String.raw`(?![\u115F\u1160\u3164\uFFA0])\p{L}`;
const nameMark = String.raw`(?![\u034F\u180B-\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Mn}\p{Mc}]`;
const namePattern = new RegExp(`^${nameLetter}${nameMark}{0,3}(?:[ '’-]|${nameLetter}${nameMark}{0,3})*$`, 'u');
export const maxNameLength = 50;
const nameCheck =
  (required: ValidationMessage | null): Check =>
  (value) => {
    const name = normaliseName(text(value));
    if (name === '') return required;
    if (codePoints(name) > maxNameLength) return ValidationMessage.tooLong;
    return namePattern.test(name) ? null : ValidationMessage.nameInvalid;
  };
export const checkFirstName = nameCheck(ValidationMessage.firstNameRequired);
export const checkLastName = nameCheck(ValidationMessage.lastNameRequired);
export const checkMiddleName = nameCheck(null);

/**
 * A US phone under the North American Numbering Plan (docs/rules.md): NPA-NXX-XXXX, where the area
 * code (NPA) and the exchange (NXX) each start with 2-9 and neither is an N11 service code (211-911).
 * No area code is N9X (held for the plan's expansion; but 939, Puerto Rico's since 2001) or 37X / 96X
 * (reserved by NANPA for unanticipated purposes), and 555-0100 to 555-0199 are reserved for fiction in
 * every area code: none of them can receive a texted code. Nor, for a phone given now (`checkPhone`), is
 * it a code of no place, which no one's own phone has: the easily recognizable codes (the last two
 * digits alike: toll-free 800 … 888, 900, 500 and 533 … 588, 600, 700), the other 5XX non-geographic
 * codes 521-529, 456, 710 (the US government) and the toll-free reserve 880-889; nor an exchange of
 * services (555, 950, 958, 959: `isServiceExchange`). A phone on file
 * (`checkPhoneOnFile`: sign-in's texted code, the password reset's) was taken before that rule: it
 * still gets its code, or the text partner's own answer.
 */
const isNanpCode = (code: string) => /^[2-9]\d\d$/.test(code) && code.slice(1) !== '11';
const isOfAPlace = (code: string) => code[1] !== code[2] && !/^(?:52[1-9]|456|710|88\d)$/.test(code);
const isAreaCode = (code: string) => isNanpCode(code) && (code[1] !== '9' || code === '939') && !/^(37|96)/.test(code);
const isFictional = (exchange: string, line: string) => exchange === '555' && line.startsWith('01');
/**
 * Exchanges no one's own phone has (ATIS INC's Central Office Code Assignment Guidelines): 555 (national
 * directory and information services, 555-1212; its 0100-0199 are the fiction above), 950 (carrier
 * access) and 958 / 959 (the telephone companies' own tests). For a phone given now, as the codes of no place.
 */
const isServiceExchange = (exchange: string) => /^(?:555|95[089])$/.test(exchange);
const phoneCheck =
  (newPhone: boolean): Check =>
  (value) => {
    // The number without a +1 country code before it (phoneDigits).
    const phone = phoneDigits(value);
    // Digits with the usual separators ((), -, ., spaces, a leading +); a letter (O for 0) makes it no
    // 10-digit number either, and spec §5 has that one message for both.
    const typo = /[^\d\s().+-]/.test(text(value));
    if (phone === '' && !typo) return ValidationMessage.phoneRequired;
    if (phone.length !== 10 || typo) return ValidationMessage.phoneLength;
    // A + before a country code other than 1 (+354 555 1234): ten digits, but not a US number.
    if (/\+[\s().-]*[02-9]/.test(text(value))) return ValidationMessage.phoneInvalid;
    const [area, exchange, line] = [phone.slice(0, 3), phone.slice(3, 6), phone.slice(6)];
    const ofSomeone = !newPhone || (isOfAPlace(area) && !isServiceExchange(exchange));
    return isAreaCode(area) && isNanpCode(exchange) && !isFictional(exchange, line) && ofSomeone ? null : ValidationMessage.phoneInvalid;
  };
/** A phone given now (registration): every rule above. */
export const checkPhone = phoneCheck(true);
/** A phone on file, to text its code to: the rules it was taken under (not yet the codes of no place). */
export const checkPhoneOnFile = phoneCheck(false);

/**
 * An ITIN (IRS): area 9XX with a group of 50-65, 70-88, 90-92 or 94-99. Other 9XX numbers are neither:
 * the SSA issues no SSN with an area of 900-999.
 */
const isItin = (area: string, group: string) => area.startsWith('9') && /^(5[0-9]|6[0-5]|7[0-9]|8[0-8]|9[0-24-9])$/.test(group);

/** SSNs the SSA voided after they were printed for all to see: the Woolworth wallet card's and an SSA pamphlet's. */
const voidedSsns = ['078051120', '219099999'];

/** A valid SSN (SSA): 9 digits, area not 000, 666 or 900-999, group not 00, serial not 0000, not voided; an ITIN is named as one. */
export const checkSsn: Check = (value) => {
  const ssn = digitsOf(value);
  if (ssn.length !== 9 || text(value).replace(/[\s-]/g, '') !== ssn) return ValidationMessage.ssnInvalid;
  const [area, group, serial] = [ssn.slice(0, 3), ssn.slice(3, 5), ssn.slice(5)];
  if (isItin(area, group)) return ValidationMessage.ssnItin;
  return area === '000' || area === '666' || area.startsWith('9') || group === '00' || serial === '0000' || voidedSsns.includes(ssn)
    ? ValidationMessage.ssnInvalid
    : null;
};

export const minimumAge = 18;

/**
 * Today's date where it begins last in the 50 states (Hawaii and the Aleutians, UTC−10), as a local
 * noon for checkDob. The card API checks an age as of this date: by its own clock (UTC) a Honolulu
 * applicant's 18th birthday would begin up to 10 hours early.
 */
export function todayInEveryState(now = new Date()): Date {
  const there = new Date(now.getTime() - 10 * 3_600_000);
  return new Date(there.getUTCFullYear(), there.getUTCMonth(), there.getUTCDate(), 12);
}

/**
 * Date of birth MM/DD/YYYY (else dobInvalid), from 1900 (dobOutOfRange), a real day (dobNotReal), not in
 * the future (dobOutOfRange), 18 or older on `today`: by default the date in every state, the card
 * API's, so the form never accepts an 18th birthday that POST /register then refuses (the device's
 * date, in UTC or further east, reaches the birthday hours before Hawaii does).
 */
export function checkDob(value: unknown, today = todayInEveryState()): ValidationMessage | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text(value).trim());
  if (!match) return ValidationMessage.dobInvalid;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Before Date.UTC, which reads the years 0-99 as 1900-1999: 01/01/0099 was called a day that doesn't exist.
  if (year < 1900) return ValidationMessage.dobOutOfRange;
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  // `today`'s calendar date (a local date, as todayInEveryState gives it), as a UTC midnight like the
  // date of birth: comparing with the instant instead would call today's date "in the future" east of UTC.
  const todayUtc = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  if (!real) return ValidationMessage.dobNotReal;
  if (date.getTime() > todayUtc) return ValidationMessage.dobOutOfRange;
  const eighteenth = Date.UTC(year + minimumAge, month - 1, day);
  return eighteenth <= todayUtc ? null : ValidationMessage.dobUnder18;
}

const requiredText =
  (required: ValidationMessage, max = 100): Check =>
  (value) => {
    const field = text(value).trim();
    if (field === '') return required;
    return field.length > max ? ValidationMessage.tooLong : null;
  };
export const checkStreet1 = requiredText(ValidationMessage.street1Required);
export const checkCity = requiredText(ValidationMessage.cityRequired, 50);
/** Apartment or unit: optional here; the address check says when it is required or wrong (301, 302). */
export const checkStreet2: Check = (value) => (text(value).trim().length > 50 ? ValidationMessage.tooLong : null);

export const checkState: Check = (value) => {
  if (text(value) === '') return ValidationMessage.stateRequired;
  return (stateCodes as readonly string[]).includes(text(value)) ? null : ValidationMessage.stateInvalid;
};

/** ZIP: 5 or 9 digits, typed with the mask #####-#### (accepted lengths 5, 6 and 10). */
export const checkZip: Check = (value) => {
  const zip = text(value).trim();
  if (zip === '') return ValidationMessage.zipRequired;
  return /^\d{5}(-?|-\d{4})$/.test(zip) ? null : ValidationMessage.zipInvalid;
};

/** `12345`, `12345-` and `123456789` become `12345` or `12345-6789`; anything else is kept (trimmed) for the check to refuse. */
export function normaliseZip(value: string): string {
  const zip = value.trim();
  if (!/^\d{5}(-?\d{4})?-?$/.test(zip)) return zip;
  const digits = digitsOf(zip);
  return digits.length === 9 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : digits;
}

/** The address as the app sends it and the card API verifies and stores it: trimmed, state upper case, ZIP normalised. */
export function normaliseAddress(address: Address): Address {
  return {
    street1: address.street1.trim(),
    street2: address.street2.trim(),
    city: address.city.trim(),
    state: address.state.trim().toUpperCase(),
    zip: normaliseZip(address.zip),
  };
}

export const personalInfoChecks = {
  firstName: checkFirstName,
  middleName: checkMiddleName,
  lastName: checkLastName,
  dob: (value: unknown) => checkDob(value),
  ssn: checkSsn,
  email: checkNewEmail,
};
export const addressChecks = { street1: checkStreet1, street2: checkStreet2, city: checkCity, state: checkState, zip: checkZip };
