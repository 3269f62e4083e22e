/**
 * The registration draft (machines/identity/registration.ts): what of a registration survives a
 * reload, kept in the session's core state and saved like the rest of it. Apart from the chart so that
 * restoring and saving state at start-up (src/app/persistence.ts) does not load the registration chart.
 * Which fields it keeps is the field table's `kept` column (registrationFields.ts).
 */
import { agreed, agreementKinds, type Legal } from '../../contract/identity/types.ts';
import { fieldText, isRecord, keptFields, registrationSteps, type KeptField, type RegistrationForm, type RegistrationStep } from './registrationFields.ts';

/**
 * Every typed field but the SSN and the unlock code, the phone a code was last texted to (a reload
 * while reading the text comes back to the code), and the furthest step reached. No token: not the
 * mfaToken that proves the phone (nor which phone it proved), which lives in the chart only, so the
 * draft saved to localStorage or to the host (state.save) proves nothing. After a reload the phone is
 * verified again (registration.ts `lastRestorableStep`).
 */
export type RegistrationDraft = { furthestStep: RegistrationStep } & Record<KeptField, string> & {
    codeSentTo: string | null;
    legal: Legal;
  };

export const isStep = (value: unknown): value is RegistrationStep => (registrationSteps as readonly unknown[]).includes(value);

/**
 * A draft from anything (saved state is untrusted): known fields only, each a short string. This is
 * also what makes sure no SSN, unlock code or mfaToken is ever saved, whatever the object holds.
 */
export function draftFrom(value: unknown): RegistrationDraft | null {
  if (!isRecord(value)) return null;
  const legal = isRecord(value.legal) ? value.legal : {};
  return {
    furthestStep: isStep(value.furthestStep) ? value.furthestStep : 1,
    ...(Object.fromEntries(keptFields.map((field) => [field, fieldText(value[field]) ?? ''])) as Record<KeptField, string>),
    codeSentTo: typeof value.codeSentTo === 'string' && /^\d{10}$/.test(value.codeSentTo) ? value.codeSentTo : null,
    legal: Object.fromEntries(agreementKinds.map((kind) => [kind, legal[kind] === agreed ? agreed : null])) as Legal,
  };
}

/**
 * The draft with what a step's form holds right now, so a reload keeps what was typed even before
 * the step is sent. Only the kept text fields are taken (`draftFrom` checks each again).
 */
export function withTypedFields(draft: RegistrationDraft, typed: Record<string, unknown>): RegistrationDraft {
  const fields = Object.fromEntries(keptFields.filter((name) => typeof typed[name] === 'string').map((name) => [name, typed[name]]));
  return draftFrom({ ...draft, ...fields }) ?? draft;
}

/** What of a registration is saved: no SSN, no unlock code, no mfaToken, no profile text (it may hold anything). */
export function draftOf(registration: { furthestStep: RegistrationStep; form: RegistrationForm; codeSentTo: string | null }): RegistrationDraft {
  const { form } = registration;
  return {
    furthestStep: registration.furthestStep,
    ...(Object.fromEntries(keptFields.map((field) => [field, form[field]])) as Record<KeptField, string>),
    codeSentTo: registration.codeSentTo,
    legal: form.legal,
  };
}
