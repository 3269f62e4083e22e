/**
 * An access token's claims, read without verifying it (the server checks every call): only to tell
 * sessions apart. Its own module, so the last-known store reads tokens as the session does without
 * loading the session chart.
 */
export function accessTokenClaims(accessToken: string | null): { sub?: unknown; iat?: unknown; exp?: unknown } | null {
  const payload = accessToken?.split('.')[1];
  if (!payload) return null;
  try {
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown; iat?: unknown; exp?: unknown } | null;
  } catch {
    return null;
  }
}
