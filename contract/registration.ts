/**
 * Registration on the wire (spec §3 registration payload, agreements and address, §4 registration
 * status, §7 calls, §8 codes). Shared by the registration chart, the API client and the card API.
 */
import type { StatusAnswer } from './api.ts';

/** POST /register results (spec §4). Sent as the statusCode of a 403 answer (denied, taken) or 200 (success). */
export const RegistrationResult = { SUCCESS: 0, APPLICATION_DENIED: 1, CIP_TAKEN: 2 } as const;
export type RegistrationResult = (typeof RegistrationResult)[keyof typeof RegistrationResult];

export const agreementKinds = ['esign', 'terms', 'cardholder3'] as const;
export type AgreementKind = (typeof agreementKinds)[number];
/** Spec §3: the acceptance value. */
export const agreed = 'agreed';
export type Legal = Record<AgreementKind, typeof agreed | null>;

/** The 50 US state codes (no DC, no territories), spec §3. */
export const stateCodes = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
export type StateCode = (typeof stateCodes)[number];

export type LegalAddress = { street1: string; street2: string; city: string; state: string; zip: string };

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
  addressLegal: LegalAddress;
  unlockCode: string;
  legal: Legal;
  /** The companion app's user uuid when embedded (links the card account to the parent-app user). */
  providersUuid: string | null;
  /** The `profile` query that pre-filled the form, as given (JSON text), or null. */
  profile: string | null;
};

/** 200 `{0, access, refresh, isInternal}`; 403 `{1}` denied or `{2}` CIP taken; 400 `{4, fieldErrors}` a rule failed. */
export type RegisterAnswer = {
  statusCode: number;
  access?: string;
  refresh?: string;
  isInternal?: boolean;
  /** On FAILED_VALIDATION: the first failing rule's message key per payload field (dotted for address). */
  fieldErrors?: Record<string, string>;
};

/** Too many account lookups from this client: 429 {201, retryAfterSeconds} (docs/api.md). */
type LookupLimited = { retryAfterSeconds?: number };
/** POST /verify/email {email}: SUCCESS when the email belongs to an existing account, else NOT_ALLOWED. */
export type VerifyEmailAnswer = StatusAnswer & LookupLimited;
/** POST /phone-number-in-use {phone}. */
export type PhoneInUseAnswer = StatusAnswer & { inUse: boolean } & LookupLimited;
/**
 * POST /request-verification {phone}: texts a 6-digit code. 202 invalid phone, 204 landline,
 * 201 too many codes (with `retryAfterSeconds`), 203 the text could not be sent.
 */
export type RequestVerificationAnswer = StatusAnswer & { retryAfterSeconds?: number };
/** POST /verify-phone {phone, code}: `mfaToken` on SUCCESS; 200 wrong code (`attemptsLeft`), 201 too many (`retryAfterSeconds`). */
export type VerifyPhoneAnswer = StatusAnswer & { mfaToken?: string; attemptsLeft?: number; retryAfterSeconds?: number };

export type AddressType = 'legal';
/** POST /verify-address {street1, street2, city, state, zip, addressType}: SUCCESS or 300-307; `optOutAllowed` on 303-307. */
export type VerifyAddressAnswer = StatusAnswer & { optOutAllowed?: boolean };

/** POST /accept-agreement {legal} (access token). GET /accepted-agreement?agreement=esign → `{0, agreed}`. */
export type AcceptedAgreementAnswer = StatusAnswer & { agreed: boolean };
