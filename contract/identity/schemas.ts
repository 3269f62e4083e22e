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
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
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

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const identitySummaries = {
  verifyEmail: 'Whether an account uses this email (SUCCESS) or not (NOT_ALLOWED).',
  phoneNumberInUse: 'Whether an account uses this phone.',
  requestVerification: 'Text a 6-digit code to the phone (limited per phone, and per client: 429 with retryAfterSeconds).',
  verifyPhone: 'Check the texted code: an mfaToken that proves the phone to POST /register only (it opens no password reset).',
  verifyAddress: 'Check the legal address (300-307 are results; optOutAllowed on 303-307; limited per client: 429 with retryAfterSeconds).',
  register: 'Open a card account (Companion-Authorization links the companion user named by providersUuid).',
  verifySsn: "Check the SSN of an email's account (password reset), once the texted code's mfaToken proves its phone: a single-use ssnToken.",
  verifySsnWithRefreshToken:
    "Check the refresh token holder's SSN (unlock-code reset): a single-use ssnToken.",
  acceptAgreement: "Record each agreement marked 'agreed'.",
  acceptedAgreement:
    'Whether the cardholder accepted the current version of an agreement, and the last version accepted.',
  agreementDocument:
    "An agreement's current text and version in English or Spanish, readable before anyone agrees.",
} satisfies RouteSummaries<typeof identityRoutes>;
