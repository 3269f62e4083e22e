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
import type { RequestSchemas } from '../shared/route.ts';
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
