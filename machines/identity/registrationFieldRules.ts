/**
 * How each registration field is normalised on submit (spec §5) and the rule that checks it: the rule
 * columns of the field table (registrationFields.ts), apart from it so that restoring the saved draft at
 * start-up (registrationDraft.ts) does not load the rules. The payload and the profile pre-fill, which
 * need them, are made here.
 */
import type { RegistrationPayload } from '../../contract/identity/types.ts';
import { stateCodes, type Address } from '../../contract/shared/address.ts';
import {
  checkNewEmail,
  checkNewUnlockCode,
  digitsOf,
  phoneDigits,
  normaliseEmail,
  type ValidationMessage,
} from '../../contract/rules.ts';
import {
  checkCity,
  checkDob,
  checkFirstName,
  checkLastName,
  checkMiddleName,
  checkPhone,
  checkSsn,
  checkState,
  checkStreet1,
  checkStreet2,
  checkZip,
  normaliseAddress,
  normaliseName,
} from '../../contract/identity/rules.ts';
import {
  addressFields,
  fieldText,
  isRecord,
  maxProfileLength,
  profileFields,
  typedFields,
  type ProfileField,
  type RegistrationForm,
  type TypedField,
} from './registrationFields.ts';

// ---------------------------------------------------------------------------------------------
// Normalisers (spec §5: on submit, names and email trimmed, phone digits only, dob mm/dd/yyyy). Names,
// email and the address use the contract's, which the card API applies too (docs/rules.md).

const asTyped = (value: string) => value;
const trimmed = (value: string) => value.trim();
const blankAddress: Address = { street1: '', street2: '', city: '', state: '', zip: '' };
/** One address field as the contract's address normaliser leaves it. */
const addressPart = (field: keyof Address) => (value: string) => normaliseAddress({ ...blankAddress, [field]: value })[field];

/** `1/2/1990`, `01-02-1990`, `01021990` and `1990-01-02` all become `01/02/1990`; anything else is kept. */
export function normaliseDob(value: string): string {
  const text = value.trim();
  const pad = (part: string) => part.padStart(2, '0');
  const us = /^(\d{1,2})[/.\s-](\d{1,2})[/.\s-](\d{4})$/.exec(text);
  if (us) return `${pad(us[1]!)}/${pad(us[2]!)}/${us[3]}`;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return `${pad(iso[2]!)}/${pad(iso[3]!)}/${iso[1]}`;
  if (/^\d{8}$/.test(text)) return `${text.slice(0, 2)}/${text.slice(2, 4)}/${text.slice(4)}`;
  return text;
}

type FieldRule = {
  normalise: (value: string) => string;
  /** The rule checked on submit; null when the step checks the field with another (the confirmation). */
  check: ((value: unknown) => ValidationMessage | null) | null;
};

/** Every typed field's rule (the type makes sure none is missing). */
export const fieldRules = {
  firstName: { normalise: normaliseName, check: checkFirstName },
  middleName: { normalise: normaliseName, check: checkMiddleName },
  lastName: { normalise: normaliseName, check: checkLastName },
  // 18 by the card API's today (checkDob's default, the date in every state), never the device's.
  dob: { normalise: normaliseDob, check: (value) => checkDob(value) },
  ssn: { normalise: asTyped, check: checkSsn },
  email: { normalise: normaliseEmail, check: checkNewEmail },
  phone: { normalise: trimmed, check: checkPhone },
  street1: { normalise: addressPart('street1'), check: checkStreet1 },
  street2: { normalise: addressPart('street2'), check: checkStreet2 },
  city: { normalise: addressPart('city'), check: checkCity },
  state: { normalise: addressPart('state'), check: checkState },
  zip: { normalise: addressPart('zip'), check: checkZip },
  unlockCode: { normalise: asTyped, check: checkNewUnlockCode },
  unlockCodeConfirmation: { normalise: asTyped, check: null },
} as const satisfies Record<TypedField, FieldRule>;

/** The given fields of an event or form, each a string (anything else counts as empty), normalised. */
export function normalisedFields<F extends TypedField>(fields: readonly F[], values: Partial<Record<F, unknown>>): Record<F, string> {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return Object.fromEntries(fields.map((field) => [field, fieldRules[field].normalise(text(values[field]))])) as Record<F, string>;
}

/** The first failing rule of each given field (fields checked with another rule are left to their step). */
export function fieldProblems<F extends TypedField>(fields: readonly F[], values: Record<F, string>): Partial<Record<F, ValidationMessage>> {
  const problems: Partial<Record<F, ValidationMessage>> = {};
  for (const field of fields) {
    const problem = fieldRules[field].check?.(values[field]) ?? null;
    if (problem) problems[field] = problem;
  }
  return problems;
}


/** The legal address as typed, normalised. */
export const addressOfForm = (form: Partial<Record<TypedField, unknown>>): Address => normaliseAddress(normalisedFields(addressFields, form));

/** What POST /register is built from: the form, the verified phone with its token, the companion app's part. */
export type PayloadSource = {
  form: RegistrationForm;
  verifiedPhone: string | null;
  mfaToken: string | null;
  providersUuid: string | null;
  profile: string | null;
};

/** POST /register's body from what was typed, normalised once more (spec §5); SSN and phone as digits. */
export function payloadOf({ form, verifiedPhone, mfaToken, providersUuid, profile }: PayloadSource): RegistrationPayload {
  const sent = normalisedFields(typedFields, form);
  return {
    firstName: sent.firstName,
    middleName: sent.middleName,
    lastName: sent.lastName,
    dob: sent.dob,
    ssn: digitsOf(sent.ssn),
    email: sent.email,
    phone: phoneDigits(verifiedPhone ?? sent.phone),
    mfaToken: mfaToken ?? '',
    addressLegal: addressOfForm(form),
    unlockCode: sent.unlockCode,
    legal: form.legal,
    providersUuid,
    profile,
  };
}

/** The fields a `profile` query names. Anything else in it, and malformed JSON, is ignored; never the SSN. */
export function profileFieldsOf(profile: string | null): Partial<Record<ProfileField, string>> {
  if (!profile || profile.length > maxProfileLength) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(profile);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const fields: Partial<Record<ProfileField, string>> = {};
  for (const field of profileFields) {
    const value = fieldText(parsed[field]);
    if (value === null || value === '') continue;
    if (field === 'state' && !(stateCodes as readonly string[]).includes(value.toUpperCase())) continue;
    fields[field] = field === 'state' || field === 'dob' ? fieldRules[field].normalise(value) : value;
  }
  return fields;
}
