/** The request schemas of contract/identity/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import {
  acceptAgreementSchema,
  acceptedAgreementQuery,
  agreementDocumentQuery,
  phoneNumberInUseSchema,
  registrationSchema,
  requestVerificationSchema,
  verifyAddressSchema,
  verifyEmailSchema,
  verifyPhoneSchema,
  verifySsnLoggedInSchema,
  verifySsnSchema,
} from '../validation.ts';
import type { RequestSchemas } from '../shared/route.ts';
import type { identityRoutes } from './routes.ts';

export const identitySchemas = {
  verifyEmail: verifyEmailSchema,
  phoneNumberInUse: phoneNumberInUseSchema,
  requestVerification: requestVerificationSchema,
  verifyPhone: verifyPhoneSchema,
  verifyAddress: verifyAddressSchema,
  register: registrationSchema,
  verifySsn: verifySsnSchema,
  verifySsnWithRefreshToken: verifySsnLoggedInSchema,
  acceptAgreement: acceptAgreementSchema,
  acceptedAgreement: acceptedAgreementQuery,
  agreementDocument: agreementDocumentQuery,
} satisfies RequestSchemas<typeof identityRoutes>;
