/**
 * The registration draft (machines/identity/registration.ts): what of a registration survives a reload, kept
 * in the session's core state and saved like the rest of it. Apart from the chart so that restoring
 * and saving state at start-up (src/app/persistence.ts) does not load the registration chart.
 */
import { agreed, agreementKinds, type Legal } from '../../contract/registration.ts';

export const registrationSteps = [1, 2, 3, 4, 5] as const;
export type RegistrationStep = (typeof registrationSteps)[number];
export const stepCount = registrationSteps.length;

/**
 * Every typed field but the SSN and the unlock code, the verified phone with its mfaToken, and the
 * furthest step reached.
 */
export type RegistrationDraft = {
  furthestStep: RegistrationStep;
  firstName: string;
  middleName: string;
  lastName: string;
  dob: string;
  email: string;
  phone: string;
  verifiedPhone: string | null;
  mfaToken: string | null;
  street1: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
  legal: Legal;
};

/** Typed fields are cut to this length when read back (the forms' own limits are lower). */
export const maxFieldLength = 100;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A short trimmed string from a string or a finite number, else null. */
export const fieldText = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? value.trim().slice(0, maxFieldLength) : null;
};

export const isStep = (value: unknown): value is RegistrationStep => (registrationSteps as readonly unknown[]).includes(value);
const tokenText = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 2000 ? value : null);

/**
 * A draft from anything (saved state is untrusted): known fields only, each a short string. This is
 * also what makes sure no SSN or unlock code is ever saved, whatever the object holds.
 */
export function draftFrom(value: unknown): RegistrationDraft | null {
  if (!isRecord(value)) return null;
  const text = (key: string) => fieldText(value[key]) ?? '';
  const legal = isRecord(value.legal) ? value.legal : {};
  return {
    furthestStep: isStep(value.furthestStep) ? value.furthestStep : 1,
    firstName: text('firstName'),
    middleName: text('middleName'),
    lastName: text('lastName'),
    dob: text('dob'),
    email: text('email'),
    phone: text('phone'),
    verifiedPhone: tokenText(value.verifiedPhone),
    mfaToken: tokenText(value.mfaToken),
    street1: text('street1'),
    street2: text('street2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    legal: Object.fromEntries(agreementKinds.map((kind) => [kind, legal[kind] === agreed ? agreed : null])) as Legal,
  };
}

/** The draft's fields a step's form types in (never the SSN or unlock code, which are not among them). */
const typedFields = ['firstName', 'middleName', 'lastName', 'dob', 'email', 'phone', 'street1', 'street2', 'city', 'state', 'zip'] as const;

/**
 * The draft with what a step's form holds right now, so a reload keeps what was typed even before
 * the step is sent. Only the known text fields are taken (`draftFrom` checks each again).
 */
export function withTypedFields(draft: RegistrationDraft, typed: Record<string, unknown>): RegistrationDraft {
  const fields = Object.fromEntries(typedFields.filter((name) => typeof typed[name] === 'string').map((name) => [name, typed[name]]));
  return draftFrom({ ...draft, ...fields }) ?? draft;
}
