/**
 * The registration form's fields in one table (docs/charts.md): for each field its step, how
 * it is normalised on submit (spec §5), the rule that checks it, whether the saved draft keeps it and
 * whether a `profile` query may pre-fill it. The empty form, the draft's fields, the profile fields,
 * the POST /register payload and where a server field error is shown all come from this table.
 *
 * Imports only the contract, so the draft (registrationDraft.ts) and start-up can use it without
 * loading the chart.
 */
import { agreementKinds, type AgreementKind, type Legal, type RegistrationPayload } from '../../contract/identity/types.ts';
import { stateCodes, type Address } from '../../contract/shared/address.ts';
import type { FieldErrors } from '../../contract/shared/answers.ts';
import {
  checkCity,
  checkDob,
  checkEmail,
  checkFirstName,
  checkLastName,
  checkMiddleName,
  checkNewUnlockCode,
  checkPhone,
  checkSsn,
  checkState,
  checkStreet1,
  checkStreet2,
  checkZip,
  digitsOf,
  normaliseAddress,
  normaliseEmail,
  normaliseName,
  type ValidationMessage,
} from '../../contract/rules.ts';

export const registrationSteps = [1, 2, 3, 4, 5] as const;
export type RegistrationStep = (typeof registrationSteps)[number];
export const stepCount = registrationSteps.length;

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

// ---------------------------------------------------------------------------------------------
// The table

type TypedFieldRow = {
  step: RegistrationStep;
  normalise: (value: string) => string;
  /** The rule checked on submit; null when the step checks the field with another (the confirmation). */
  check: ((value: unknown) => ValidationMessage | null) | null;
  /** Kept in the saved draft (never the SSN or the unlock code). */
  kept: boolean;
  /** May be pre-filled from the `profile` query (spec §2). */
  prefilled: boolean;
  /** Sent inside this part of the POST /register body (the server names its errors `part.field`). */
  part?: 'addressLegal';
};

/** Every field typed as text, in the order of the steps (the "first failing field" order). */
export const typedFieldTable = {
  firstName: { step: 1, normalise: normaliseName, check: checkFirstName, kept: true, prefilled: true },
  middleName: { step: 1, normalise: normaliseName, check: checkMiddleName, kept: true, prefilled: true },
  lastName: { step: 1, normalise: normaliseName, check: checkLastName, kept: true, prefilled: true },
  dob: { step: 1, normalise: normaliseDob, check: (value) => checkDob(value), kept: true, prefilled: true },
  ssn: { step: 1, normalise: asTyped, check: checkSsn, kept: false, prefilled: false },
  email: { step: 1, normalise: normaliseEmail, check: checkEmail, kept: true, prefilled: true },
  phone: { step: 2, normalise: trimmed, check: checkPhone, kept: true, prefilled: true },
  street1: { step: 3, normalise: addressPart('street1'), check: checkStreet1, kept: true, prefilled: true, part: 'addressLegal' },
  street2: { step: 3, normalise: addressPart('street2'), check: checkStreet2, kept: true, prefilled: true, part: 'addressLegal' },
  city: { step: 3, normalise: addressPart('city'), check: checkCity, kept: true, prefilled: true, part: 'addressLegal' },
  state: { step: 3, normalise: addressPart('state'), check: checkState, kept: true, prefilled: true, part: 'addressLegal' },
  zip: { step: 3, normalise: addressPart('zip'), check: checkZip, kept: true, prefilled: true, part: 'addressLegal' },
  unlockCode: { step: 4, normalise: asTyped, check: checkNewUnlockCode, kept: false, prefilled: false },
  unlockCodeConfirmation: { step: 4, normalise: asTyped, check: null, kept: false, prefilled: false },
} as const satisfies Record<string, TypedFieldRow>;

export type TypedField = keyof typeof typedFieldTable;
type Row<F extends TypedField> = (typeof typedFieldTable)[F];
const typedFields = Object.keys(typedFieldTable) as TypedField[];

/** The agreements (step 5) follow the typed fields; the draft keeps them, a profile never sets them. */
const agreementStep: RegistrationStep = 5;

/** Every field a registration form has, in the order of the steps. */
export const registrationFields = [...typedFields, ...agreementKinds] as const;
export type RegistrationField = TypedField | AgreementKind;

export const stepOfField = Object.fromEntries([
  ...typedFields.map((field) => [field, typedFieldTable[field].step]),
  ...agreementKinds.map((kind) => [kind, agreementStep]),
]) as Record<RegistrationField, RegistrationStep>;

/** The typed fields of a step. */
export const fieldsOfStep = (step: RegistrationStep): TypedField[] => typedFields.filter((field) => typedFieldTable[field].step === step);

export type KeptField = { [F in TypedField]: Row<F>['kept'] extends true ? F : never }[TypedField];
export const keptFields = typedFields.filter((field): field is KeptField => typedFieldTable[field].kept);

export type ProfileField = { [F in TypedField]: Row<F>['prefilled'] extends true ? F : never }[TypedField];
export const profileFields = typedFields.filter((field): field is ProfileField => typedFieldTable[field].prefilled);

// ---------------------------------------------------------------------------------------------
// What is derived

/** Everything the user typed, normalised as each step is submitted (spec §5). */
export type RegistrationForm = Record<TypedField, string> & { legal: Legal };

export const noLegal: Legal = { esign: null, terms: null, cardholder3: null };
export const emptyForm: RegistrationForm = {
  ...(Object.fromEntries(typedFields.map((field) => [field, ''])) as Record<TypedField, string>),
  legal: noLegal,
};

/** The given fields of an event or form, each a string (anything else counts as empty), normalised. */
export function normalisedFields<F extends TypedField>(fields: readonly F[], values: Partial<Record<F, unknown>>): Record<F, string> {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return Object.fromEntries(fields.map((field) => [field, typedFieldTable[field].normalise(text(values[field]))])) as Record<F, string>;
}

/** The first failing rule of each given field (fields checked with another rule are left to their step). */
export function fieldProblems<F extends TypedField>(fields: readonly F[], values: Record<F, string>): Partial<Record<F, ValidationMessage>> {
  const problems: Partial<Record<F, ValidationMessage>> = {};
  for (const field of fields) {
    const problem = typedFieldTable[field].check?.(values[field]) ?? null;
    if (problem) problems[field] = problem;
  }
  return problems;
}

const addressFields = typedFields.filter((field): field is keyof Address => 'part' in typedFieldTable[field]);

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
    phone: digitsOf(verifiedPhone ?? sent.phone),
    mfaToken: mfaToken ?? '',
    addressLegal: addressOfForm(form),
    unlockCode: sent.unlockCode,
    legal: form.legal,
    providersUuid,
    profile,
  };
}

/**
 * The form field that shows a server field's problem: each field under its own name or as
 * `part.field` (`addressLegal.zip`, `legal.esign`); a whole part (`addressLegal`, e.g. `address.304`;
 * `legal`) on its first field; the `mfaToken` on the phone.
 */
const formFieldOfServerField: ReadonlyMap<string, RegistrationField> = new Map<string, RegistrationField>([
  ...registrationFields.map((field) => [field, field] as const),
  ...addressFields.map((field) => [`addressLegal.${field}`, field] as const),
  ['addressLegal', addressFields[0]!],
  ...agreementKinds.map((kind) => [`legal.${kind}`, kind] as const),
  ['legal', agreementKinds[0]],
  ['mfaToken', 'phone'],
]);

export const formFieldOf = (serverField: string): RegistrationField | null => formFieldOfServerField.get(serverField) ?? null;

/**
 * Problems beside the rules.ts ValidationMessage keys. The first two are the card API's own
 * (contract/validation.ts ServerFieldError), the third the chart's; `address.<300-307>` is the
 * server's key for an address its own check refused at /register.
 */
export const RegistrationProblem = {
  /** The server no longer accepts the phone verification (mfaToken): verify the phone again. */
  phoneUnverified: 'phone.unverified',
  /** Not every agreement was accepted (server, for `legal` as a whole). */
  legalRequired: 'legal.required',
  /** This agreement was not accepted. */
  agreementRequired: 'agreement.required',
} as const;

/** A field's problem: a rules.ts ValidationMessage, a RegistrationProblem, or a key the server sent. */
export type FieldProblems = Partial<Record<RegistrationField, string>>;

/** The server's 400 `fieldErrors` on the form's fields; the mfaToken's problem shows on the phone. */
export function serverFieldProblems(serverErrors: FieldErrors | undefined): FieldProblems {
  const problems: FieldProblems = {};
  for (const [serverField, message] of Object.entries(serverErrors ?? {})) {
    const field = formFieldOf(serverField);
    if (!field || typeof message !== 'string') continue;
    problems[field] = serverField === 'mfaToken' ? RegistrationProblem.phoneUnverified : message;
  }
  return problems;
}

/** The step owning the first failing field, or null when no field the form knows failed. */
export function firstFailingStep(problems: FieldProblems): RegistrationStep | null {
  const first = registrationFields.find((field) => problems[field] !== undefined);
  return first ? stepOfField[first] : null;
}

// ---------------------------------------------------------------------------------------------
// Profile pre-fill (spec §2)

/** Longer `profile` texts are ignored (not read, not sent). */
export const maxProfileLength = 4000;

/** Typed fields are cut to this length when read from a draft or a profile (the forms' own limits are lower). */
export const maxFieldLength = 100;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short trimmed string from a string or a finite number, else null. */
export const fieldText = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value.trim().slice(0, maxFieldLength) : null;
};

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
    fields[field] = field === 'state' || field === 'dob' ? typedFieldTable[field].normalise(value) : value;
  }
  return fields;
}
