/**
 * Sessions: short-lived signed access tokens (JWT, HS256 pinned, exp/aud/iss checked) and rotating,
 * single-use refresh tokens stored hashed. One sign-in starts a token family; reusing a spent
 * refresh token revokes the whole family (it was stolen or replayed).
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import type { SessionTokens } from '../contract/shared/answers.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { refreshTokens } from './db/schema/index.ts';
import { hashToken, randomToken } from './secrets.ts';

const audience = 'providers-card-app';
const issuer = 'providers-card-api';
const algorithm = 'HS256';

export type AccessClaims = { userId: string; familyId: string };
export type AccessCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };
/** The two tokens of a session (contract SessionTokens without isInternal, which the caller adds). */
export type IssuedTokens = Pick<SessionTokens, 'access' | 'refresh'>;

export function createSessions(db: Database, config: ServerConfig) {
  // Access tokens (by jti) ended early by the sandbox (POST /sandbox/sessions/expire): session expiry
  // happens when a test says so, not when a clock runs out. Stays empty outside sandbox mode.
  const expiredEarly = new Set<string>();

  async function issueAccessToken(claims: AccessClaims, ttlSeconds = config.accessTokenTtl): Promise<string> {
    return new SignJWT({ sid: claims.familyId })
      .setProtectedHeader({ alg: algorithm })
      // A unique id per token: without it, two tokens issued in the same second would be identical.
      .setJti(crypto.randomUUID())
      .setSubject(claims.userId)
      .setAudience(audience)
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(config.tokenSecret);
  }

  async function checkAccessToken(token: string): Promise<AccessCheck> {
    try {
      const { payload } = await jwtVerify(token, config.tokenSecret, {
        algorithms: [algorithm],
        audience,
        issuer,
        requiredClaims: ['sub', 'exp', 'sid'],
      });
      if (payload.jti !== undefined && expiredEarly.has(payload.jti)) return { ok: false, reason: 'expired' };
      return { ok: true, claims: { userId: String(payload.sub), familyId: String(payload.sid) } };
    } catch (error) {
      return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }

  /** Makes a valid access token answer as expired from now on (sandbox only); false when it is not valid. */
  async function expireAccessToken(token: string): Promise<boolean> {
    const check = await checkAccessToken(token);
    if (!check.ok) return false;
    expiredEarly.add(String(decodeJwt(token).jti));
    return true;
  }

  async function isFamilyRevoked(familyId: string): Promise<boolean> {
    const rows = await db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, familyId), isNotNull(refreshTokens.revokedAt)))
      .limit(1);
    return rows.length > 0;
  }

  async function insertRefreshToken(userId: string, familyId: string, expiresAt: Date): Promise<string> {
    const refresh = randomToken();
    await db.insert(refreshTokens).values({ userId, familyId, tokenHash: hashToken(refresh), expiresAt });
    return refresh;
  }

  async function startSession(userId: string, accessTtlSeconds = config.accessTokenTtl): Promise<IssuedTokens> {
    const familyId = crypto.randomUUID();
    const expiresAt = new Date(Date.now() + config.refreshTokenTtl * 1000);
    const refresh = await insertRefreshToken(userId, familyId, expiresAt);
    return { access: await issueAccessToken({ userId, familyId }, accessTtlSeconds), refresh };
  }

  async function revokeFamily(familyId: string): Promise<void> {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  /** Ends every session of a user (a password change, an unlock lockout). */
  async function revokeUserFamilies(userId: string): Promise<void> {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  /** The live refresh token row behind a presented token, or why there is none. */
  async function findRefreshToken(presented: string) {
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(presented)));
    if (!row) return { ok: false as const };
    if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) return { ok: false as const };
    if (row.usedAt) {
      await revokeFamily(row.familyId);
      return { ok: false as const };
    }
    return { ok: true as const, row };
  }

  /** Spends a refresh token and issues its successor in the same family (same absolute expiry). */
  async function rotate(row: typeof refreshTokens.$inferSelect): Promise<IssuedTokens | null> {
    const spent = await db
      .update(refreshTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    if (spent.length === 0) {
      // Another request spent it first: treat as reuse.
      await revokeFamily(row.familyId);
      return null;
    }
    const refresh = await insertRefreshToken(row.userId, row.familyId, row.expiresAt);
    return { access: await issueAccessToken({ userId: row.userId, familyId: row.familyId }), refresh };
  }

  return { issueAccessToken, checkAccessToken, expireAccessToken, isFamilyRevoked, startSession, revokeFamily, revokeUserFamilies, findRefreshToken, rotate };
}

export type Sessions = ReturnType<typeof createSessions>;
