/** The request schemas of contract/session/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import {
  changePasswordSchema,
  refreshTokensSchema,
  resetUnlockCodeSchema,
  sendResetCodeSchema,
  signInSchema,
  verifyResetCodeSchema,
} from '../validation.ts';
import { object } from 'yup';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { sessionRoutes } from './routes.ts';

/** The companion token travels in the Authorization header; a body, when sent, must be an empty object. */
const noBody = object({}).noUnknown().nullable();

export const sessionSchemas = {
  signIn: signInSchema,
  providersSignIn: noBody,
  signOut: null,
  refreshTokens: refreshTokensSchema,
  resetUnlockCode: resetUnlockCodeSchema,
  sendResetCode: sendResetCodeSchema,
  verifyResetCode: verifyResetCodeSchema,
  changePassword: changePasswordSchema,
} satisfies RequestSchemas<typeof sessionRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const sessionSummaries = {
  signIn: 'Sign in with email and password, and the texted code when the cardholder needs one.',
  providersSignIn: "Sign in inside the companion app with that app's token for its user.",
  signOut: "End the session: the presented token's family (refresh or access token) is revoked.",
  refreshTokens: 'Unlock: new tokens for the refresh token and the unlock code (the refresh token rotates).',
  resetUnlockCode:
    'Set a new unlock code with an ssnToken: ends an unlock lockout and rotates the refresh token.',
  sendResetCode:
    'Password reset, first step: text a code to the phone on file when an account uses the email; the answer is the same either way.',
  verifyResetCode:
    'Check the texted password-reset code: an mfaToken that proves the phone on file to POST /change-password.',
  changePassword:
    'Reset a forgotten password with the SSN and the mfaToken of the texted code: every session of the cardholder ends.',
} satisfies RouteSummaries<typeof sessionRoutes>;
