/**
 * Route guards of spec §2 as pure decisions over the session, so they are easy to test.
 * A guard answers null (go on) or where to go instead; the route table turns that into a redirect.
 * The intended route is remembered in the `redirect` search param of unlock and sign-in.
 * The failed-registration marker (spec §4) is not a session: guards treat it as no refresh token.
 */
import { failedRegistrationMarker, isSessionToken } from '../../machines/session/session.ts';

export type Tokens = { accessToken: string | null; refreshToken: string | null };
export type GuardOptions = { guardsEnabled: boolean };
/** Which auth screen, by its address; the route table turns it into a typed redirect (layoutRoutes.ts). */
export type AuthRedirect = { to: '/signin' | '/unlock'; search: { redirect?: string } };

/**
 * Only same-app paths are accepted as a place to return to (no other origins, no `//host`). Control
 * characters are refused too: the URL parser drops a tab or newline, so `/<tab>/evil.test` is `//evil.test`.
 */
export function safeRedirect(value: unknown): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) {
    return undefined;
  }
  return value.length <= 2000 ? value : undefined;
}

function withRemembered(to: AuthRedirect['to'], href: string): AuthRedirect {
  const redirect = safeRedirect(href);
  return { to, search: redirect && redirect !== '/' ? { redirect } : {} };
}

/** Account screens: no refresh token → sign in; no access token → unlock. */
export function accessTokenGuard(tokens: Tokens, href: string, options: GuardOptions): AuthRedirect | null {
  if (!options.guardsEnabled) return null;
  if (!isSessionToken(tokens.refreshToken)) return withRemembered('/signin', href);
  if (!tokens.accessToken) return withRemembered('/unlock', href);
  return null;
}

/** Unlock and reset-unlock-code: need a refresh token, else sign in (keeping the remembered route). */
export function refreshTokenGuard(tokens: Tokens, remembered: string | undefined, options: GuardOptions): AuthRedirect | null {
  if (!options.guardsEnabled || isSessionToken(tokens.refreshToken)) return null;
  const redirect = safeRedirect(remembered);
  return { to: '/signin', search: redirect ? { redirect } : {} };
}

/** Registration is only offered inside the companion app. */
export function registrationGuard(embedded: boolean, options: GuardOptions): boolean {
  return embedded || !options.guardsEnabled;
}

/** A denied or CIP-taken registration happened on this device: /register shows its failure screen. */
export function hasFailedRegistration(tokens: Pick<Tokens, 'refreshToken'>): boolean {
  return tokens.refreshToken === failedRegistrationMarker;
}

/** Where unlock or sign-in continues: the remembered route, else home. */
export function afterAuthRoute(remembered: string | undefined): string {
  return safeRedirect(remembered) ?? '/home';
}
