/**
 * Address verification (spec §5, §8 codes 300-307). A real integration implements `AddressVerifier`
 * with a postal/CIP vendor; the sandbox one answers from obvious words in the address (docs/sandbox.md).
 */
import type { Address } from '../../contract/shared/address.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

export type AddressStatusCode =
  | typeof StatusCode.ADDRESS_INVALID
  | typeof StatusCode.ADDRESS_UNIT_INCORRECT
  | typeof StatusCode.ADDRESS_UNIT_REQUIRED
  | typeof StatusCode.ADDRESS_COMMERCIAL
  | typeof StatusCode.ADDRESS_PO_BOX
  | typeof StatusCode.ADDRESS_VACANT
  | typeof StatusCode.ADDRESS_GENERAL_DELIVERY
  | typeof StatusCode.ADDRESS_MAIL_DROP;

export type AddressCheck = { ok: true } | { ok: false; statusCode: AddressStatusCode };

export type AddressVerifier = { verify(address: Address): Promise<AddressCheck> };

/** Codes 303-307: the cardholder may say they have no legal address (spec §8 opt-out link). */
export const optOutAllowed = (statusCode: number) => statusCode >= StatusCode.ADDRESS_COMMERCIAL && statusCode <= StatusCode.ADDRESS_MAIL_DROP;
/** Codes 301 and 302 are about the apartment or unit field. */
export const isUnitProblem = (statusCode: number) =>
  statusCode === StatusCode.ADDRESS_UNIT_INCORRECT || statusCode === StatusCode.ADDRESS_UNIT_REQUIRED;

/**
 * Characters no address label prints: controls (a line break, a bell), format characters (bidi
 * overrides that reorder what is shown, zero-width ones), private-use and unassigned code points, the
 * characters Unicode says to draw as nothing (Default_Ignorable_Code_Point: the Hangul fillers,
 * variation selectors, the combining grapheme joiner), the blank braille pattern, and pictographs with
 * what builds them (🙂, flags' regional indicators, skin tones, the keycap). An address with one is no
 * mailing address, whatever a vendor would answer.
 */
const unprintable = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u20E3]/u;

/**
 * Any verifier, behind the rule above: such an address is refused before the vendor is asked (and is
 * never stored), as the vendor refuses what it cannot read: 301 when it is in the apartment or unit
 * (that field is flagged), else 300.
 */
export function printableAddressesOnly(verifier: AddressVerifier): AddressVerifier {
  return {
    async verify(address) {
      if (unprintable.test(address.street2)) return { ok: false, statusCode: StatusCode.ADDRESS_UNIT_INCORRECT };
      if ([address.street1, address.city, address.state, address.zip].some((field) => unprintable.test(field))) {
        return { ok: false, statusCode: StatusCode.ADDRESS_INVALID };
      }
      return verifier.verify(address);
    },
  };
}

/**
 * A Post Office Box in any of the forms people write (USPS Publication 28, which standardises them all
 * to `PO BOX`): `PO Box`, `P.O. Box`, `P O Box`, `P.O.Box`, `POBox`, `POB`, `P.O.B.`, `Post Office Box`.
 * Matched before the office/suite rule: `Post Office Box 123` is a PO Box, not a commercial address.
 */
const poBox = /\b(?:p\.?\s*o\.?\s*b(?:ox)?|post\s+office\s+box)\b/;
/** A private mailbox at a commercial mail receiving agency (USPS Publication 28: `PMB`), a mail drop. */
const privateMailbox = /\b(?:pmb|private\s+mail\s?box)\b/;

/** Sandbox rules, first match wins, case-insensitive (docs/sandbox.md "Registration partners"). */
export function sandboxAddressCode(address: Address): AddressStatusCode | null {
  const street1 = address.street1.toLowerCase();
  const street2 = address.street2.trim().toLowerCase();
  const both = `${street1} ${street2}`;
  // Each line on its own, so a street ending "Po" and a unit "B" make no PO Box.
  const eitherLine = (pattern: RegExp) => pattern.test(street1) || pattern.test(street2);
  if (/\binvalid\b/.test(street1)) return StatusCode.ADDRESS_INVALID;
  if (eitherLine(poBox)) return StatusCode.ADDRESS_PO_BOX;
  if (/\bgeneral delivery\b/.test(street1)) return StatusCode.ADDRESS_GENERAL_DELIVERY;
  if (/\bmail drop\b/.test(street1) || eitherLine(privateMailbox)) return StatusCode.ADDRESS_MAIL_DROP;
  if (/\bvacant\b/.test(street1)) return StatusCode.ADDRESS_VACANT;
  if (/\b(office|suite)\b/.test(both)) return StatusCode.ADDRESS_COMMERCIAL;
  if (/\bunit wrong\b/.test(both) || /\b999\b/.test(street2)) return StatusCode.ADDRESS_UNIT_INCORRECT;
  if (/\bapartments\b/.test(street1) && street2 === '') return StatusCode.ADDRESS_UNIT_REQUIRED;
  return null;
}

export const sandboxAddressVerifier: AddressVerifier = {
  async verify(address) {
    const statusCode = sandboxAddressCode(address);
    return statusCode === null ? { ok: true } : { ok: false, statusCode };
  },
};

/** Outside sandbox mode until a vendor is configured: registration cannot go on (500, UNEXPECTED_ERROR). */
export const unconfiguredAddressVerifier: AddressVerifier = {
  async verify() {
    throw new Error('No address verification partner is configured.');
  },
};
