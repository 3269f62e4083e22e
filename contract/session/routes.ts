/** The session's calls (spec §7): sign-in, companion sign-in, sign-out, unlock, unlock-code reset, password reset. */
import type { StatusAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type {
  ChangePasswordAnswer,
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
    answers: { 200: [0], 400: [2], 401: [100, 105, 200, 202, 203, 204], 429: [201] },
  }),
  providersSignIn: route<Record<string, never> | null, SignInAnswer>({
    name: 'providersSignIn',
    method: 'POST',
    path: '/providers/sign-in',
    caller: 'companionToken',
    answers: { 200: [0], 400: [2], 401: [100], 403: [3] },
  }),
  signOut: route<null, StatusAnswer>({
    name: 'signOut',
    method: 'POST',
    path: '/sign-out',
    caller: 'refreshToken',
    tokenOptional: true,
    answers: { 200: [0] },
  }),
  refreshTokens: route<RefreshTokensRequest, RefreshTokensAnswer>({
    name: 'refreshTokens',
    method: 'POST',
    path: '/refresh-tokens',
    caller: 'refreshToken',
    answers: { 200: [0], 400: [2], 401: [101, 104] },
  }),
  resetUnlockCode: route<ResetUnlockCodeRequest, ResetUnlockCodeAnswer>({
    name: 'resetUnlockCode',
    method: 'POST',
    path: '/reset-unlock-code',
    caller: 'refreshToken',
    answers: { 200: [0], 400: [2, 4], 401: [104] },
  }),
  sendResetCode: route<SendResetCodeRequest, SendResetCodeAnswer>({
    name: 'sendResetCode',
    method: 'POST',
    path: '/reset-password',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2, 4], 429: [201] },
  }),
  verifyResetCode: route<VerifyResetCodeRequest, VerifyResetCodeAnswer>({
    name: 'verifyResetCode',
    method: 'POST',
    path: '/verify/reset-code',
    caller: 'anonymous',
    answers: { 200: [0, 200], 400: [2, 4], 429: [201] },
  }),
  changePassword: route<ChangePasswordRequest, ChangePasswordAnswer>({
    name: 'changePassword',
    method: 'POST',
    path: '/change-password',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2, 4], 401: [4], 429: [201] },
  }),
};
