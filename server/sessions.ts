/**
 * Sessions: short-lived signed access tokens (JWT, HS256 pinned, exp/aud/iss checked) and rotating,
 * single-use refresh tokens stored hashed. One sign-in starts a token family; reusing a spent
 * refresh token revokes the whole family (it was stolen or replayed), except within a few seconds
 * by the device that spent it: two tabs refreshing at once get the same successor.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose';
import type { SessionTokens } from '../contract/shared/answers.ts';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { refreshTokens } from './db/schema/index.ts';
import { hashToken, randomToken } from './secrets.ts';

/**
 * Whether session family `family` (a value, or a prepared statement's placeholder) was revoked, as SQL:
 * for the statements that check the session themselves, in the same round trip (GET /home, GET /transactions).
 */
export const familyRevokedSql = (family: SQL): SQL =>
  sql`exists(select 1 from refresh_tokens r where r.family_id = ${family} and r.revoked_at is not null)`;

const audience = 'providers-card-app';
const issuer = 'providers-card-api';
const algorithm = 'HS256';

export type AccessClaims = { userId: string; familyId: string };
export type AccessCheck = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };
/** The two tokens of a session (contract SessionTokens without isInternal, which the caller adds). */
export type IssuedTokens = Pick<SessionTokens, 'access' | 'refresh'>;

/** How a refresh token was presented: the token, the device, and the successor when within the grace. */
export type RefreshUse = { presented: string; device: string | null; successor: string | null };

/** How long the device that spent a refresh token may present it again and get the same successor (two tabs at once). */
export const refreshGraceSeconds = 10;
/**
 * Longer, while that successor has not been used: the answer that carried it was lost on the way (a
 * dropped connection, the app's 120-second limit, an unlock retyped after the error modal), so the
 * device sends the spent token again. Ending the session then would sign out a cardholder who did
 * nothing wrong, and one who opened the account in the companion app has no password to sign in with.
 * A successor used already means the spent token is someone else's: the session ends.
 */
export const lostAnswerGraceSeconds = 300;

/** The successor, sealed (AES-256-GCM) under a key only the spent token gives: never at rest in the clear. */
const sealingKey = (spentToken: string) => createHash('sha256').update(`refresh-grace:${spentToken}`).digest();

function sealSuccessor(spentToken: string, successor: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(spentToken), iv);
  const sealed = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return [iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
}

function openSuccessor(spentToken: string, sealed: string): string | null {
  try {
    const [iv, data, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(spentToken), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * How long a session's rows outlive its absolute expiry before deleteExpired takes them: an access
 * token issued just before it (at most an hour long: server/config.ts, the sandbox's sessions) must
 * still find its family revoked or not (familyRevokedSql) until it expires itself.
 */
const keptAfterExpiryMs = 24 * 60 * 60 * 1000;

/** How many checked access tokens are remembered (about 0.5 KB each). */
const verifiedTokensKept = 10_000;

export function createSessions(db: Database, config: ServerConfig) {
  // Access tokens (by jti) ended early by the sandbox (POST /sandbox/sessions/expire): session expiry
  // happens when a test says so, not when a clock runs out. Stays empty outside sandbox mode.
  const expiredEarly = new Set<string>();
  // The signing key imported once: jose would import a raw secret again on every sign and verify, a
  // measurable share of each signed-in request (docs/performance.md).
  const tokenKey = crypto.subtle.importKey('raw', new Uint8Array(config.tokenSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

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
      .sign(await tokenKey);
  }

  // Tokens whose signature and claims were checked, with what they said: the app sends the same access
  // token on every call until it expires, and the signature check (WebCrypto, about 0.1 ms) was a
  // measurable share of each signed-in request (docs/performance.md). The expiry is still checked on
  // every call, as jose does (expired from its `exp` second on). Bounded: the oldest entry goes first.
  const verified = new Map<string, { claims: AccessClaims; exp: number; jti: string | undefined }>();

  async function checkAccessToken(token: string): Promise<AccessCheck> {
    let known = verified.get(token);
    if (!known) {
      try {
        const { payload } = await jwtVerify(token, await tokenKey, {
          algorithms: [algorithm],
          audience,
          issuer,
          requiredClaims: ['sub', 'exp', 'sid'],
        });
        known = { claims: { userId: String(payload.sub), familyId: String(payload.sid) }, exp: payload.exp!, jti: payload.jti };
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
      if (verified.size >= verifiedTokensKept) verified.delete(verified.keys().next().value!);
      verified.set(token, known);
    }
    if (known.exp <= Math.floor(Date.now() / 1000)) {
      verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    if (known.jti !== undefined && expiredEarly.has(known.jti)) return { ok: false, reason: 'expired' };
    return { ok: true, claims: known.claims };
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

  /** Ends every session of a user (a password change, an unlock lockout); `executor`: a transaction it belongs to. */
  async function revokeUserFamilies(userId: string, executor: Pick<Database, 'update'> = db): Promise<void> {
    await executor
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  /** A refresh token neither spent nor revoked. */
  async function isUnspent(token: string): Promise<boolean> {
    const [row] = await db
      .select({ id: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.tokenHash, hashToken(token)), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)));
    return row !== undefined;
  }

  /**
   * The live refresh token row behind a presented token, or why there is none. A spent one is reuse
   * (the family is revoked) unless the device that spent it presents it again within the grace, or
   * within the lost answer's grace while its successor is unused: then the row comes with the
   * successor it was given (`successor`).
   */
  async function findRefreshToken(presented: string, device: string | null = null) {
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashToken(presented)));
    if (!row) return { ok: false as const };
    if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) return { ok: false as const };
    if (row.usedAt) {
      const age = Date.now() - row.usedAt.getTime();
      const successor = age <= lostAnswerGraceSeconds * 1000 && device !== null && row.spentByDevice === device && row.successorSealed
        ? openSuccessor(presented, row.successorSealed)
        : null;
      if (successor && (age <= refreshGraceSeconds * 1000 || (await isUnspent(successor)))) return { ok: true as const, row, successor };
      await revokeFamily(row.familyId);
      return { ok: false as const };
    }
    return { ok: true as const, row, successor: null };
  }

  /**
   * Spends a refresh token and issues its successor in the same family (same absolute expiry); for a
   * token presented again within the grace, the successor it already has and a new access token.
   */
  async function rotate(row: typeof refreshTokens.$inferSelect, use: RefreshUse): Promise<IssuedTokens | null> {
    const { presented, device } = use;
    const access = () => issueAccessToken({ userId: row.userId, familyId: row.familyId });
    if (use.successor) return { access: await access(), refresh: use.successor };
    const refresh = randomToken();
    const spent = await db
      .update(refreshTokens)
      // By this server's clock, as the grace is read (findRefreshToken): a database on another host may not agree.
      .set({ usedAt: new Date(), spentByDevice: device, successorSealed: sealSuccessor(presented, refresh) })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning({ id: refreshTokens.id });
    if (spent.length === 0) {
      // Spent meanwhile by a parallel request: the same device within the grace gets that successor.
      const again = await findRefreshToken(presented, device);
      return again.ok && again.successor ? { access: await access(), refresh: again.successor } : null;
    }
    await db.insert(refreshTokens).values({ userId: row.userId, familyId: row.familyId, tokenHash: hashToken(refresh), expiresAt: row.expiresAt });
    return { access: await access(), refresh };
  }

  /**
   * Deletes the refresh tokens of sessions past their absolute expiry (and keptAfterExpiryMs), spent,
   * revoked or not: none can be used or reused any more, and each refresh adds a row, so the table would
   * otherwise keep every token ever issued. Answers how many rows went.
   */
  async function deleteExpired(now = new Date()): Promise<number> {
    const deleted = await db
      .delete(refreshTokens)
      .where(lte(refreshTokens.expiresAt, new Date(now.getTime() - keptAfterExpiryMs)))
      .returning({ id: refreshTokens.id });
    return deleted.length;
  }

  return {
    issueAccessToken,
    checkAccessToken,
    expireAccessToken,
    isFamilyRevoked,
    startSession,
    revokeFamily,
    revokeUserFamilies,
    findRefreshToken,
    rotate,
    deleteExpired,
  };
}

export type Sessions = ReturnType<typeof createSessions>;
