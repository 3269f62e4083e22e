/** Effects the registration chart declares and the view supplies, beside the session's own. */
import type { RegistrationResultName } from '../../../machines/identity/registration.ts';
import type { Analytics } from '../../app/analytics.ts';

/** Spec §4/§7: the result of a registration, without any personal data. */
export function logRegistrationResult(analytics: Analytics, result: RegistrationResultName): void {
  analytics.track('registration.result', { result });
}
