/**
 * Where a registration field's problem is shown and which step it sends the user back to: the step
 * of each field (the field table's `step` column, then the agreements), the server's field names
 * mapped onto the form's, and the problems beside the rules' messages. Apart from the field table
 * (registrationFields.ts), which the saved draft's check loads at start-up: these are needed only
 * once the registration chart runs.
 */
import { agreementKinds } from '../../contract/identity/types.ts';
import type { FieldErrors } from '../../contract/shared/answers.ts';
import { addressFields, typedFieldTable, typedFields, type RegistrationField, type RegistrationStep } from './registrationFields.ts';

/** The agreements (step 5) follow the typed fields; the draft keeps them, a profile never sets them. */
const agreementStep: RegistrationStep = 5;

/** Every field a registration form has, in the order of the steps. */
const registrationFields = [...typedFields, ...agreementKinds] as const;

export const stepOfField = Object.fromEntries([
  ...typedFields.map((field) => [field, typedFieldTable[field].step]),
  ...agreementKinds.map((kind) => [kind, agreementStep]),
]) as Record<RegistrationField, RegistrationStep>;

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
