/** Route guards (spec §2): where an unauthenticated visit goes and what it remembers. */
import { describe, expect, it } from 'vitest';
import { failedRegistrationMarker } from '../../machines/session/session.ts';
import {
  accessTokenGuard,
  afterAuthRoute,
  hasFailedRegistration,
  refreshTokenGuard,
  registrationGuard,
  safeRedirect,
} from '../../src/app/guards.ts';

const on = { guardsEnabled: true };
const off = { guardsEnabled: false };
const signedOut = { accessToken: null, refreshToken: null };
const locked = { accessToken: null, refreshToken: 'r1' };
const active = { accessToken: 'a1', refreshToken: 'r1' };

describe('safeRedirect', () => {
  it.each(['/home', '/home?x=1', '/cards/c1?tab=details#top', '/'])('accepts the same-app path %s', (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it.each([
    ['another origin', 'https://evil.test'],
    ['a protocol-relative URL', '//evil.test'],
    ['a backslash path', '/\\evil'],
    ['a backslash later in the path', '/home\\..\\evil'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'home'],
    ['an empty string', ''],
    // The URL parser drops tabs and newlines: each of these is //evil.test to the browser.
    ['a tab between the slashes', '/\t/evil.test'],
    ['a newline between the slashes', '/\n/evil.test'],
    ['a carriage return', '/\r/evil.test/x'],
    ['a NUL', '/home\u0000'],
  ])('rejects %s', (_name, value) => {
    expect(safeRedirect(value)).toBeUndefined();
  });

  it.each([undefined, null, 42, {}, ['/home'], true])('rejects the non-string %j', (value) => {
    expect(safeRedirect(value)).toBeUndefined();
  });

  it('accepts up to 2000 characters and rejects longer ones', () => {
    const longest = `/${'a'.repeat(1999)}`;
    expect(safeRedirect(longest)).toBe(longest);
    expect(safeRedirect(`${longest}a`)).toBeUndefined();
  });
});

describe('accessTokenGuard', () => {
  it('sends a visitor without a refresh token to sign-in, remembering the route', () => {
    expect(accessTokenGuard(signedOut, '/cards?tab=1', on)).toEqual({ to: '/signin', search: { redirect: '/cards?tab=1' } });
  });

  it('sends to sign-in when only an access token is left (no refresh token)', () => {
    expect(accessTokenGuard({ accessToken: 'a1', refreshToken: null }, '/home', on)).toEqual({
      to: '/signin',
      search: { redirect: '/home' },
    });
  });

  it('sends a locked session (refresh token, no access token) to unlock, remembering the route', () => {
    expect(accessTokenGuard(locked, '/user', on)).toEqual({ to: '/unlock', search: { redirect: '/user' } });
  });

  it('lets an active session through', () => {
    expect(accessTokenGuard(active, '/home', on)).toBeNull();
  });

  it('lets everyone through when guards are disabled', () => {
    expect(accessTokenGuard(signedOut, '/home', off)).toBeNull();
    expect(accessTokenGuard(locked, '/home', off)).toBeNull();
  });

  it('does not remember "/"', () => {
    expect(accessTokenGuard(signedOut, '/', on)).toEqual({ to: '/signin', search: {} });
    expect(accessTokenGuard(locked, '/', on)).toEqual({ to: '/unlock', search: {} });
  });

  it('does not remember an unsafe href', () => {
    expect(accessTokenGuard(signedOut, '//evil.test/home', on)).toEqual({ to: '/signin', search: {} });
    expect(accessTokenGuard(locked, 'https://evil.test', on)).toEqual({ to: '/unlock', search: {} });
  });
});

describe('refreshTokenGuard', () => {
  it('sends a visitor without a refresh token to sign-in, keeping the remembered route', () => {
    expect(refreshTokenGuard(signedOut, '/cards', on)).toEqual({ to: '/signin', search: { redirect: '/cards' } });
  });

  it('sends to sign-in without a redirect when nothing (or nothing safe) is remembered', () => {
    expect(refreshTokenGuard(signedOut, undefined, on)).toEqual({ to: '/signin', search: {} });
    expect(refreshTokenGuard(signedOut, '//evil.test', on)).toEqual({ to: '/signin', search: {} });
  });

  it('lets a session with a refresh token through, with or without an access token', () => {
    expect(refreshTokenGuard(locked, '/home', on)).toBeNull();
    expect(refreshTokenGuard(active, '/home', on)).toBeNull();
  });

  it('lets everyone through when guards are disabled', () => {
    expect(refreshTokenGuard(signedOut, '/home', off)).toBeNull();
  });
});

describe('afterAuthRoute', () => {
  it('continues to the remembered route', () => {
    expect(afterAuthRoute('/cards?tab=2')).toBe('/cards?tab=2');
  });

  it.each([undefined, '', 'https://evil.test', '//evil.test', '/\\evil', `/${'a'.repeat(2000)}`])(
    'falls back to /home for %j',
    (remembered) => {
      expect(afterAuthRoute(remembered)).toBe('/home');
    },
  );
});

describe('registrationGuard', () => {
  it('offers registration only inside the companion app when guards are enabled', () => {
    expect(registrationGuard(true, on)).toBe(true);
    expect(registrationGuard(false, on)).toBe(false);
  });

  it('offers registration everywhere when guards are disabled', () => {
    expect(registrationGuard(false, off)).toBe(true);
    expect(registrationGuard(true, off)).toBe(true);
  });
});

describe('the failed-registration marker', () => {
  const failed = { accessToken: null, refreshToken: failedRegistrationMarker };

  it('is no session for the account screens: sign in', () => {
    expect(accessTokenGuard(failed, '/home', on)).toEqual({ to: '/signin', search: { redirect: '/home' } });
    expect(accessTokenGuard({ ...failed, accessToken: 'a1' }, '/home', on)).toEqual({ to: '/signin', search: { redirect: '/home' } });
  });

  it('is no refresh token for unlock: sign in', () => {
    expect(refreshTokenGuard(failed, '/home', on)).toEqual({ to: '/signin', search: { redirect: '/home' } });
  });

  it('marks a failed registration, and nothing else does', () => {
    expect(hasFailedRegistration(failed)).toBe(true);
    expect(hasFailedRegistration(locked)).toBe(false);
    expect(hasFailedRegistration(signedOut)).toBe(false);
  });
});
