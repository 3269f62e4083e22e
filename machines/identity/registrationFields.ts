/**
 * The registration form's fields in one table (docs/charts.md): for each field its step, whether the
 * saved draft keeps it and whether a `profile` query may pre-fill it. The empty form, the draft's
 * fields, the profile fields and where a server field error is shown (registrationProblems.ts) all come
 * from this table; how each field is normalised and checked is its other half,
 * registrationFieldRules.ts (which makes the POST /register payload).
 *
 * Imports no rules, so restoring the saved draft at start-up (registrationDraft.ts) loads neither the
 * chart nor the rules: every screen's first load is smaller.
 */
import type { AgreementKind, Legal } from '../../contract/identity/types.ts';
import type { Address } from '../../contract/shared/address.ts';

export const registrationSteps = [1, 2, 3, 4, 5] as const;
export type RegistrationStep = (typeof registrationSteps)[number];
export const stepCount = registrationSteps.length;

// ---------------------------------------------------------------------------------------------
// The table

type TypedFieldRow = {
  step: RegistrationStep;
  /** Kept in the saved draft (never the SSN or the unlock code). */
  kept: boolean;
  /** May be pre-filled from the `profile` query (spec §2). */
  prefilled: boolean;
  /** Sent inside this part of the POST /register body (the server names its errors `part.field`). */
  part?: 'addressLegal';
};

/** Every field typed as text, in the order of the steps (the "first failing field" order). */
export const typedFieldTable = {
  firstName: { step: 1, kept: true, prefilled: true },
  middleName: { step: 1, kept: true, prefilled: true },
  lastName: { step: 1, kept: true, prefilled: true },
  dob: { step: 1, kept: true, prefilled: true },
  ssn: { step: 1, kept: false, prefilled: false },
  email: { step: 1, kept: true, prefilled: true },
  phone: { step: 2, kept: true, prefilled: true },
  street1: { step: 3, kept: true, prefilled: true, part: 'addressLegal' },
  street2: { step: 3, kept: true, prefilled: true, part: 'addressLegal' },
  city: { step: 3, kept: true, prefilled: true, part: 'addressLegal' },
  state: { step: 3, kept: true, prefilled: true, part: 'addressLegal' },
  zip: { step: 3, kept: true, prefilled: true, part: 'addressLegal' },
  unlockCode: { step: 4, kept: false, prefilled: false },
  unlockCodeConfirmation: { step: 4, kept: false, prefilled: false },
} as const satisfies Record<string, TypedFieldRow>;

export type TypedField = keyof typeof typedFieldTable;
type Row<F extends TypedField> = (typeof typedFieldTable)[F];
export const typedFields = Object.keys(typedFieldTable) as TypedField[];

/** Every field a registration form has: the typed fields, then the agreements (step 5). */
export type RegistrationField = TypedField | AgreementKind;

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

/** The legal address's fields, sent inside `addressLegal`. */
export const addressFields = typedFields.filter((field): field is keyof Address => 'part' in typedFieldTable[field]);

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
