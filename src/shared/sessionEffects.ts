/** Effects shared by the flows that open a session (sign-in, unlock, reset unlock code, registration): store tokens, continue. */
import type { AnyRouter } from '@tanstack/react-router';
import type { SessionTokens } from '../../contract/shared/answers.ts';
import { afterAuthRoute, safeRedirect } from '../app/guards.ts';
import type { SessionActor } from '../app/context.ts';

type TokenAnswer = { access?: string; refresh?: string; isInternal?: boolean };

/** The charts only call this after checking both tokens are present. */
export function storeSession(session: SessionActor, answer: TokenAnswer): void {
  const tokens: SessionTokens = { access: answer.access ?? '', refresh: answer.refresh ?? '', isInternal: answer.isInternal ?? false };
  session.send({ type: 'session.signedIn', ...tokens });
}

/** Replaces the auth screen with the remembered route, or home. */
export function continueToApp(router: AnyRouter, remembered: string | undefined): void {
  void router.navigate({ href: afterAuthRoute(remembered), replace: true });
}

/**
 * After an unlock lockout the sign-in answer says mustResetUnlockCode: the unlock code is reset first,
 * and the remembered route is kept for afterwards.
 */
export function goToResetUnlockCode(router: AnyRouter, remembered: string | undefined): void {
  const redirect = safeRedirect(remembered);
  void router.navigate({ to: '/reset-unlock-code/{-$step}', params: { step: undefined }, search: redirect ? { redirect } : {}, replace: true });
}
