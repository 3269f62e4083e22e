/**
 * Registration's calls (spec §7), made from the identity route table over the app's API client. They
 * live with the feature, not in the client, so the first screen of every other route does not load them.
 */
import { identityRoutes as identity } from '../../../contract/identity/routes.ts';
import { RegistrationResult, type RegisterAnswer, type RegistrationPayload } from '../../../contract/identity/types.ts';
import type { Address } from '../../../contract/shared/address.ts';
import type { FieldErrors, SessionTokens } from '../../../contract/shared/answers.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { defaultWaitSeconds } from '../../../machines/shared/serverWait.ts';
import { ApiRefusedError, type Api } from '../../shared/api/client.ts';

/**
 * Whether POST /register needs the companion app's token: the card API links a companion user
 * (providersUuid) or the EBT account the host linked (the EBT-Account-ID header every call carries)
 * only on that app's word.
 */
export const needsCompanionToken = (payload: Pick<RegistrationPayload, 'providersUuid'>, ebtAccountId: string | null) =>
  Boolean(payload.providersUuid || ebtAccountId);

export function registrationCalls({ call, send }: Api) {
  /**
   * POST /register (spec §7, 403 expected). The HTTP status tells the results apart: statusCode 2 on
   * a 403 is CIP_TAKEN, while on a 400 it is INVALID_PARAMETERS (a refusal, not a result); 429
   * `{201, retryAfterSeconds}` is the account-lookup limit.
   */
  async function register(payload: RegistrationPayload, companionToken: string | null = null): Promise<RegisterAnswer> {
    // Linking the companion user or the EBT account takes the companion app's token (needsCompanionToken).
    const headers = companionToken ? { 'Companion-Authorization': `Bearer ${companionToken}` } : undefined;
    const { answer, httpStatus } = await send(identity.register, payload, { headers });
    // Read before narrowing: the HTTP status decides which answer this is.
    const raw = answer as RegisterAnswer & Partial<SessionTokens> & { fieldErrors?: FieldErrors };
    const code: number = raw.statusCode;
    if (httpStatus === 200 && code === RegistrationResult.SUCCESS && raw.access && raw.refresh) {
      return { statusCode: StatusCode.SUCCESS, access: raw.access, refresh: raw.refresh, isInternal: raw.isInternal ?? false };
    }
    if (httpStatus === 403 && code === RegistrationResult.APPLICATION_DENIED) return { statusCode: RegistrationResult.APPLICATION_DENIED };
    if (httpStatus === 403 && code === RegistrationResult.CIP_TAKEN) return { statusCode: RegistrationResult.CIP_TAKEN };
    if (httpStatus === 400 && code === StatusCode.FAILED_VALIDATION) {
      return { statusCode: StatusCode.FAILED_VALIDATION, fieldErrors: raw.fieldErrors ?? {} };
    }
    // Too many account lookups from this client (a taken identity counts as one): wait, then send again.
    if (httpStatus === 429 && code === StatusCode.INVALID_MFA_LIMIT) {
      const wait = (raw as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      return { statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds: typeof wait === 'number' ? wait : defaultWaitSeconds };
    }
    throw new ApiRefusedError(raw.statusCode as StatusCode);
  }

  return {
    /** SUCCESS when an account already uses the email, NOT_ALLOWED when it is free. */
    verifyEmail: (email: string) => call(identity.verifyEmail, { email }),
    phoneNumberInUse: (phone: string) => call(identity.phoneNumberInUse, { phone }),
    /** Texts a 6-digit code; 201-204 are results (too many codes, invalid phone, not sent, landline). */
    requestVerification: (phone: string) => call(identity.requestVerification, { phone }),
    verifyPhone: (phone: string, code: string) => call(identity.verifyPhone, { phone, code }),
    /** The legal address; 300-307 are results. */
    verifyAddress: ({ street1, street2, city, state, zip }: Address) =>
      call(identity.verifyAddress, { street1, street2, city, state, zip, addressType: 'legal' }),
    register,
  };
}
