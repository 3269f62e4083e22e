/**
 * Registration and identity checks on the wire (spec §3 registration payload, agreements and address,
 * §4 registration status, §7 calls, §8 codes): email, phone, address and SSN verification, agreements.
 */
import type { Address } from '../shared/address.ts';
import type { FieldErrorsAnswer, MayBeTooMany, MayHaveFieldErrors, SessionTokens, StatusAnswer, TooManyAnswer } from '../shared/answers.ts';
import type { StatusCode } from '../shared/statusCodes.ts';

/** POST /register results (spec §4). Sent as the statusCode of a 403 answer (denied, taken) or 200 (success). */
export const RegistrationResult = { SUCCESS: 0, APPLICATION_DENIED: 1, CIP_TAKEN: 2 } as const;
export type RegistrationResult = (typeof RegistrationResult)[keyof typeof RegistrationResult];

export const agreementKinds = ['esign', 'terms', 'cardholder3'] as const;
export type AgreementKind = (typeof agreementKinds)[number];
/** Spec §3: the acceptance value. */
export const agreed = 'agreed';
export type Legal = Record<AgreementKind, typeof agreed | null>;

/**
 * POST /register body (spec §3). Normalised before sending: names and email trimmed, phone digits
 * only, dob `mm/dd/yyyy`, ssn 9 digits. `mfaToken` proves the phone was verified (POST /verify-phone).
 */
export type RegistrationPayload = {
  firstName: string;
  middleName: string;
  lastName: string;
  dob: string;
  ssn: string;
  email: string;
  phone: string;
  mfaToken: string;
  addressLegal: Address;
  unlockCode: string;
  legal: Legal;
  /** The companion app's user uuid when embedded (links the card account to the parent-app user). */
  providersUuid: string | null;
  /** The `profile` query that pre-filled the form, as given (JSON text), or null. */
  profile: string | null;
};

/**
 * POST /register answers, told apart by HTTP status (a 403 `{2}` is CIP_TAKEN, a 400 `{2}` is a
 * malformed body, not a result): 200 `{0, access, refresh, isInternal}`, 403 `{1}` denied, 403 `{2}`
 * taken, 400 `{4, fieldErrors}` a rule failed, 429 `{201, retryAfterSeconds}` too many account
 * lookups from this client (a taken identity counts as one).
 */
export type RegisterAnswer =
  | ({ statusCode: typeof StatusCode.SUCCESS } & SessionTokens)
  | FieldErrorsAnswer
  | { statusCode: Exclude<RegistrationResult, 0> }
  | TooManyAnswer;

/** POST /verify/email {email}: SUCCESS when the email belongs to an existing account, else NOT_ALLOWED. */
export type VerifyEmailAnswer = StatusAnswer & MayBeTooMany & MayHaveFieldErrors;
/** POST /phone-number-in-use {phone}. */
export type PhoneInUseAnswer = StatusAnswer & { inUse: boolean } & MayBeTooMany & MayHaveFieldErrors;
/**
 * POST /request-verification {phone}: texts a 6-digit code. 202 invalid phone, 204 landline,
 * 201 too many codes (with `retryAfterSeconds`), 203 the text could not be sent.
 */
export type RequestVerificationAnswer = StatusAnswer & MayBeTooMany;
/** POST /verify-phone {phone, code}: `mfaToken` on SUCCESS; 200 wrong code (`attemptsLeft`), 201 too many (`retryAfterSeconds`). */
export type VerifyPhoneAnswer = StatusAnswer & { mfaToken?: string; attemptsLeft?: number } & MayBeTooMany;

export type AddressType = 'legal';
export type VerifyAddressRequest = Address & { addressType: AddressType };
/** POST /verify-address {street1, street2, city, state, zip, addressType}: SUCCESS or 300-307; `optOutAllowed` on 303-307; 429 {201, retryAfterSeconds} over the per-client limit. */
export type VerifyAddressAnswer = StatusAnswer & { optOutAllowed?: boolean } & MayHaveFieldErrors & MayBeTooMany;

/**
 * POST /accept-agreement {legal} (access token) records the current version of each agreement marked
 * 'agreed'. GET /accepted-agreement?agreement=esign → `{0, agreed, version}`: `agreed` when the current
 * version was accepted, `version` the last one accepted (null when none).
 */
export type AcceptedAgreementAnswer = StatusAnswer & { agreed: boolean; version: string | null };

/** The current version of each agreement (a date): a new text gets a new version, to be accepted again. */
export const agreementVersions: Record<AgreementKind, string> = { esign: '2026-11-01', terms: '2026-11-01', cardholder3: '2026-12-03' };

export type AgreementLocale = 'en' | 'es';
/** GET /agreement?kind=terms&locale=es: an agreement's text, plain data (no markup), in the language asked for. */
export type AgreementDocument = {
  kind: AgreementKind;
  version: string;
  locale: AgreementLocale;
  title: string;
  sections: { heading: string; paragraphs: string[] }[];
};
export type AgreementDocumentQuery = { kind: AgreementKind; locale: AgreementLocale };
export type AgreementDocumentAnswer = StatusAnswer & { agreement?: AgreementDocument };

/** POST /verify/ssn {email, ssn} and /verify/ssn/logged-in-refresh-token {ssn}: `{0, ssnToken}`; 401 `{4, attemptsLeft}` no match; 429 `{201, retryAfterSeconds}` too many. */
export type VerifySsnAnswer = StatusAnswer & { ssnToken?: string; attemptsLeft?: number } & MayBeTooMany & MayHaveFieldErrors;
