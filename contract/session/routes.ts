/** The session's calls (spec §7): sign-in, companion sign-in, sign-out, unlock, unlock-code reset, password reset. */
import type { StatusAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type {
  ChangePasswordRequest,
  RefreshTokensAnswer,
  RefreshTokensRequest,
  ResetUnlockCodeAnswer,
  ResetUnlockCodeRequest,
  SendResetCodeAnswer,
  SendResetCodeRequest,
  SignInAnswer,
  SignInRequest,
  VerifyResetCodeAnswer,
  VerifyResetCodeRequest,
} from './types.ts';

export const sessionRoutes = {
  signIn: route<SignInRequest, SignInAnswer>({
    name: 'signIn',
    method: 'POST',
    path: '/sign-in',
    caller: 'anonymous',
    summary: 'Sign in with email and password, and the texted code when the cardholder needs one.',
    answers: { 200: [0], 400: [2], 401: [100, 105, 200, 202, 203, 204], 429: [201] },
  }),
  providersSignIn: route<Record<string, never> | null, SignInAnswer>({
    name: 'providersSignIn',
    method: 'POST',
    path: '/providers/sign-in',
    caller: 'companionToken',
    summary: "Sign in inside the companion app with that app's token for its user.",
    answers: { 200: [0], 400: [2], 401: [100], 403: [3] },
  }),
  signOut: route<null, StatusAnswer>({
    name: 'signOut',
    method: 'POST',
    path: '/sign-out',
    caller: 'refreshToken',
    tokenOptional: true,
    summary: "End the session: the presented token's family (refresh or access token) is revoked.",
    answers: { 200: [0] },
  }),
  refreshTokens: route<RefreshTokensRequest, RefreshTokensAnswer>({
    name: 'refreshTokens',
    method: 'POST',
    path: '/refresh-tokens',
    caller: 'refreshToken',
    summary: 'Unlock: new tokens for the refresh token and the unlock code (the refresh token rotates).',
    answers: { 200: [0], 400: [2], 401: [101, 104] },
  }),
  resetUnlockCode: route<ResetUnlockCodeRequest, ResetUnlockCodeAnswer>({
    name: 'resetUnlockCode',
    method: 'POST',
    path: '/reset-unlock-code',
    caller: 'refreshToken',
    summary: 'Set a new unlock code with an ssnToken: ends an unlock lockout and rotates the refresh token.',
    answers: { 200: [0], 400: [2, 4], 401: [104] },
  }),
  sendResetCode: route<SendResetCodeRequest, SendResetCodeAnswer>({
    name: 'sendResetCode',
    method: 'POST',
    path: '/reset-password',
    caller: 'anonymous',
    summary: 'Password reset, first step: text a code to the phone on file when an account uses the email; the answer is the same either way.',
    answers: { 200: [0], 400: [2, 4], 429: [201] },
  }),
  verifyResetCode: route<VerifyResetCodeRequest, VerifyResetCodeAnswer>({
    name: 'verifyResetCode',
    method: 'POST',
    path: '/verify/reset-code',
    caller: 'anonymous',
    summary: 'Check the texted password-reset code: an mfaToken that proves the phone on file to POST /change-password.',
    answers: { 200: [0, 200], 400: [2, 4], 429: [201] },
  }),
  changePassword: route<ChangePasswordRequest, StatusAnswer>({
    name: 'changePassword',
    method: 'POST',
    path: '/change-password',
    caller: 'anonymous',
    summary: 'Reset a forgotten password with the SSN and the mfaToken of the texted code: every session of the cardholder ends.',
    answers: { 200: [0], 400: [2, 4], 401: [4], 429: [201] },
  }),
};
