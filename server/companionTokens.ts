/**
 * The companion benefits app's access tokens, as the card API sees them at POST /providers/sign-in:
 * HS256 JWTs signed with the shared COMPANION_TOKEN_SECRET, issuer and audience pinned, `sub` is the
 * parent-app user's uuid, `ebt` the EBT account the companion app has linked to that user (the card API
 * links an account to an EBT id only on this word: POST /register). The sandbox companion host issues
 * them with the same module.
 */
import { errors, jwtVerify, SignJWT } from 'jose';

export const companionTokenIssuer = 'companion-benefits-app';
export const companionTokenAudience = 'providers-card-api';
const algorithm = 'HS256';

export type CompanionClaims = { uuid: string; email: string | null; ebtAccountId?: string | null };
export type CompanionTokenCheck = { ok: true; claims: CompanionClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyCompanionToken(token: string, secret: Uint8Array): Promise<CompanionTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: [algorithm],
      issuer: companionTokenIssuer,
      audience: companionTokenAudience,
      requiredClaims: ['sub', 'exp'],
    });
    const email = typeof payload.email === 'string' ? payload.email : null;
    const ebtAccountId = typeof payload.ebt === 'string' ? payload.ebt : null;
    return { ok: true, claims: { uuid: String(payload.sub), email, ebtAccountId } };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** Sandbox only: what the companion app's own auth server would issue. */
export async function issueCompanionToken(
  claims: CompanionClaims,
  secret: Uint8Array,
  ttlSeconds = 600,
): Promise<string> {
  return new SignJWT({ ...(claims.email && { email: claims.email }), ...(claims.ebtAccountId && { ebt: claims.ebtAccountId }) })
    .setProtectedHeader({ alg: algorithm })
    .setJti(crypto.randomUUID())
    .setSubject(claims.uuid)
    .setIssuer(companionTokenIssuer)
    .setAudience(companionTokenAudience)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secret);
}
