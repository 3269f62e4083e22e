/** The props a registration step repeats for each field it lets the cardholder type into. */
import type { RegistrationSnapshot } from '../../../machines/identity/registration.ts';
import type { RegistrationField, RegistrationForm } from '../../../machines/identity/registrationFields.ts';

/** A field typed as text (every form field but the agreements). */
type TypedField = Exclude<keyof RegistrationForm, 'legal'> & RegistrationField;

/**
 * A field's id and name, what was typed before, and its problem as text (a step's `problemsOf`):
 * `<TextField {...field('city')} label={t`City`} />`. The id is the name; another id goes after the
 * spread. Fields a step controls itself (masked as they are typed) take `value` and the problem instead.
 */
export function fieldPropsOf(state: RegistrationSnapshot, problem: (field: RegistrationField) => string | undefined) {
  return (name: TypedField) => ({ id: name, name, defaultValue: state.context.form[name], error: problem(name) });
}
