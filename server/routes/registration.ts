/**
 * Registration (spec §3-§5, §7): email and phone checks, phone verification by texted code, address
 * verification, POST /register, and setting a new unlock code. The card API is the authority on every
 * rule: bodies are checked with the same rules as the forms (contract/rules.ts through
 * contract/validation.ts), and limits, lockouts and uniqueness live in the database.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ObjectSchema } from 'yup';
import { agreementKinds, type RegistrationPayload, RegistrationResult } from '../../contract/registration.ts';
import { digitsOf, normaliseAddress, normaliseEmail, normaliseName } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/statusCodes.ts';
import {
  addressFieldError,
  checkBody,
  phoneNumberInUseSchema,
  registrationSchema,
  requestVerificationSchema,
  ServerFieldError,
  setUnlockCodeSchema,
  verifyAddressSchema,
  verifyEmailSchema,
  verifyPhoneSchema,
} from '../../contract/validation.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import {
  accounts,
  addressKeyOf,
  agreementAcceptances,
  cards,
  mfaTokens,
  users,
} from '../db/schema.ts';
import {
  createAttemptLimits,
  deviceSubject,
  ipSubject,
  lookupPerDevicePolicy,
  lookupPerIpPolicy,
  unlockAttemptLimit,
} from '../attemptLimits.ts';
import { verifyCompanionToken } from '../companionTokens.ts';
import { requireAccess } from '../http.ts';
import {
  type AddressVerifier,
  isUnitProblem,
  optOutAllowed,
  sandboxAddressVerifier,
  unconfiguredAddressVerifier,
} from '../partners/address.ts';
import { type IdentityVerifier, sandboxIdentityVerifier, unconfiguredIdentityVerifier } from '../partners/identity.ts';
import { createSandboxSmsGateway, type SmsGateway, unconfiguredSmsGateway } from '../partners/sms.ts';
import { codeTtlMinutes, createTextedCodes, tooManyCodes } from '../textedCodes.ts';
import { hashSecret, hashToken, randomDigits, randomToken } from '../secrets.ts';
import type { Sessions } from '../sessions.ts';
import { encryptSsn, ssnDigits, ssnHash } from '../ssn.ts';

export { codeTtlMinutes, codesPerWindow, codeWindowMinutes, lockoutMinutes, wrongCodeLimit } from '../textedCodes.ts';
/** An mfaToken proves a verified phone to POST /register for 30 minutes, once. */
export const mfaTokenTtlMinutes = 30;

/** Registration waves (spec §4) a `profile` may choose; anything else registers with no wave. */
export const profileWaves = ['snapback_test', 'snapback_test_500', 'cdg_gpm_trial', 'ebt_rewards_test_group'] as const;

export type RegistrationPartners = { identity: IdentityVerifier; address: AddressVerifier; sms: SmsGateway };

/** Sandbox stand-ins in sandbox mode; outside it, nothing is configured yet (docs/sandbox.md). */
export function registrationPartners(config: ServerConfig, db: Database): RegistrationPartners {
  return config.sandbox
    ? { identity: sandboxIdentityVerifier, address: sandboxAddressVerifier, sms: createSandboxSmsGateway(db) }
    : { identity: unconfiguredIdentityVerifier, address: unconfiguredAddressVerifier, sms: unconfiguredSmsGateway };
}

/** Unique constraints that mean "this identity already has an account" (CIP_TAKEN). */
const takenConstraints = new Set([
  'users_ssn_hash_unique',
  'users_email_unique',
  'users_phone_unique',
  'users_address_key_unique',
  'users_ebt_account_id_unique',
  'users_providers_uuid_unique',
]);

/** The unique constraint a database error broke (through drizzle's wrapper), if that is what it was. */
function brokenUniqueConstraint(error: unknown): string | undefined {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return undefined;
}

/** The PostgreSQL error code (SQLSTATE) behind a database error, if any. */
function databaseErrorCode(error: unknown): string | undefined {
  for (let cause = error; cause && typeof cause === 'object'; cause = (cause as { cause?: unknown }).cause) {
    const { code } = cause as { code?: unknown };
    if (typeof code === 'string') return code;
  }
  return undefined;
}

class MfaTokenNotUsable extends Error {}

export const badRequest = (reply: FastifyReply) => reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS });
export const failedValidation = (reply: FastifyReply, fieldErrors: Record<string, string>) =>
  reply.code(400).send({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors });
/** A body checked strictly: malformed → 400 {2}; a broken rule → 400 {4, fieldErrors}; else the value. */
export function validBody<T extends object>(schema: ObjectSchema<T>, request: FastifyRequest, reply: FastifyReply): T | undefined {
  const body = checkBody(schema, request.body);
  if (body.kind === 'valid') return body.value;
  if (body.kind === 'malformed') badRequest(reply);
  else failedValidation(reply, body.fieldErrors);
  return undefined;
}

function waveFromProfile(profile: string | null): string | null {
  if (!profile) return null;
  try {
    const wave: unknown = (JSON.parse(profile) as { registrationWave?: unknown } | null)?.registrationWave;
    return typeof wave === 'string' && (profileWaves as readonly string[]).includes(wave) ? wave : null;
  } catch {
    return null;
  }
}

export function registerRegistrationRoutes(
  app: FastifyInstance,
  db: Database,
  sessions: Sessions,
  config: ServerConfig,
  partners: RegistrationPartners = registrationPartners(config, db),
): void {
  const codes = createTextedCodes(db, config.ssnHashKey, partners.sms);
  const limits = createAttemptLimits(db);

  /**
   * Counts an account lookup per IP, then per Device-UUID when one is sent (IP first: a client over
   * its IP limit adds no rows with made-up device ids). The wait in seconds when over a limit, else 0;
   * a wait is answered like every other limit of this API: 429 `{201, retryAfterSeconds}` and
   * Retry-After (tooManyCodes).
   */
  async function lookupWait(request: FastifyRequest): Promise<number> {
    const perIp = await limits.countRequest(lookupPerIpPolicy, ipSubject(request.ip));
    if (!perIp.allowed) return perIp.retryAfterSeconds;
    const device = deviceSubject(request.headers['device-uuid']);
    const perDevice = device ? await limits.countRequest(lookupPerDevicePolicy, device) : perIp;
    return perDevice.allowed ? 0 : perDevice.retryAfterSeconds;
  }

  /** The live mfaToken row for a presented token and phone, or undefined. */
  async function usableMfaToken(token: string, phone: string) {
    const [row] = await db
      .select({ id: mfaTokens.id, phone: mfaTokens.phone })
      .from(mfaTokens)
      .where(and(eq(mfaTokens.tokenHash, hashToken(token)), isNull(mfaTokens.usedAt), sql`${mfaTokens.expiresAt} > now()`));
    return row && row.phone === phone ? row : undefined;
  }

  app.post('/verify/email', async (request, reply) => {
    const body = validBody(verifyEmailSchema, request, reply);
    if (!body) return reply;
    const wait = await lookupWait(request);
    if (wait > 0) return tooManyCodes(reply, wait);
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${normaliseEmail(body.email)})`);
    return user ? { statusCode: StatusCode.SUCCESS } : reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });

  app.post('/phone-number-in-use', async (request, reply) => {
    const body = validBody(phoneNumberInUseSchema, request, reply);
    if (!body) return reply;
    const wait = await lookupWait(request);
    if (wait > 0) return tooManyCodes(reply, wait);
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, digitsOf(body.phone)));
    return { statusCode: StatusCode.SUCCESS, inUse: user !== undefined };
  });

  app.post('/request-verification', async (request, reply) => {
    const body = checkBody(requestVerificationSchema, request.body);
    if (body.kind === 'malformed') return badRequest(reply);
    if (body.kind === 'invalid') return { statusCode: StatusCode.INVALID_PHONE_NUMBER };
    const phone = digitsOf(body.value.phone);

    const issued = await codes.issue(
      phone,
      'register',
      (code) => `Your Providers verification code is ${code}. It expires in ${codeTtlMinutes} minutes. Never share it.`,
    );
    if (issued.kind === 'limit') return tooManyCodes(reply, issued.retryAfterSeconds);
    if (issued.kind === 'landline') return { statusCode: StatusCode.INVALID_PHONE_LANDLINE };
    if (issued.kind === 'failed') return { statusCode: StatusCode.MFA_ERROR };
    return { statusCode: StatusCode.SUCCESS };
  });

  app.post('/verify-phone', async (request, reply) => {
    const body = checkBody(verifyPhoneSchema, request.body);
    if (body.kind === 'malformed') return badRequest(reply);
    if (body.kind === 'invalid') return { statusCode: StatusCode.INVALID_PHONE_NUMBER };
    const phone = digitsOf(body.value.phone);

    const checked = await codes.check(phone, 'register', body.value.code);
    if (checked.kind === 'locked') return tooManyCodes(reply, checked.retryAfterSeconds);
    if (checked.kind === 'wrong') {
      return checked.attemptsLeft === undefined
        ? { statusCode: StatusCode.INVALID_MFA_CODE }
        : { statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: checked.attemptsLeft };
    }

    const mfaToken = randomToken();
    await db
      .insert(mfaTokens)
      .values({ tokenHash: hashToken(mfaToken), phone, expiresAt: sql`now() + make_interval(mins => ${mfaTokenTtlMinutes})` });
    return { statusCode: StatusCode.SUCCESS, mfaToken };
  });

  app.post('/verify-address', async (request, reply) => {
    const body = validBody(verifyAddressSchema, request, reply);
    if (!body) return reply;
    const check = await partners.address.verify(normaliseAddress(body));
    if (check.ok) return { statusCode: StatusCode.SUCCESS };
    return optOutAllowed(check.statusCode) ? { statusCode: check.statusCode, optOutAllowed: true } : { statusCode: check.statusCode };
  });

  app.post('/register', async (request, reply) => {
    const body = checkBody(registrationSchema, request.body);
    if (body.kind === 'malformed') return badRequest(reply);
    const ebtHeader = request.headers['ebt-account-id'];
    if (ebtHeader !== undefined && (typeof ebtHeader !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(ebtHeader.trim()))) {
      return badRequest(reply);
    }
    const ebtAccountId = ebtHeader?.trim().toUpperCase() || null;

    if (body.kind === 'invalid') {
      const { mfaToken, ...fieldErrors } = body.fieldErrors;
      // The token stands for the phone's verification: the phone field shows it.
      if (mfaToken && !fieldErrors.phone) fieldErrors.phone = mfaToken;
      return failedValidation(reply, fieldErrors);
    }
    const payload = body.value as RegistrationPayload;
    // Linking a companion user takes that user's own token, so nobody can claim another's uuid.
    if (payload.providersUuid && !(await isCompanionUser(request, payload.providersUuid, config))) {
      return failedValidation(reply, { providersUuid: ServerFieldError.providersUuidUnverified });
    }
    const phone = digitsOf(payload.phone);
    const token = await usableMfaToken(payload.mfaToken, phone);
    if (!token) return failedValidation(reply, { phone: ServerFieldError.phoneUnverified });

    // Checked again here, whatever the app saw at POST /verify-address.
    const address = normaliseAddress(payload.addressLegal);
    const addressCheck = await partners.address.verify(address);
    if (!addressCheck.ok) {
      const field = isUnitProblem(addressCheck.statusCode) ? 'addressLegal.street2' : 'addressLegal';
      return failedValidation(reply, { [field]: addressFieldError(addressCheck.statusCode) });
    }

    const ssn = ssnDigits(payload.ssn);
    const identity = {
      ssnHash: ssnHash(ssn, config.ssnHashKey),
      email: normaliseEmail(payload.email),
      phone,
      addressKey: addressKeyOf(address),
      ebtAccountId,
      providersUuid: payload.providersUuid,
    };
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(
        or(
          eq(users.ssnHash, identity.ssnHash),
          sql`lower(${users.email}) = lower(${identity.email})`,
          eq(users.phone, phone),
          eq(users.addressKey, identity.addressKey),
          ebtAccountId ? eq(users.ebtAccountId, ebtAccountId) : undefined,
          identity.providersUuid ? eq(users.providersUuid, identity.providersUuid) : undefined,
        ),
      )
      .limit(1);
    if (taken) {
      request.log.info('registration refused: identity already has an account (CIP_TAKEN)');
      return reply.code(403).send({ statusCode: RegistrationResult.CIP_TAKEN });
    }

    const decision = await partners.identity.verify({
      firstName: normaliseName(payload.firstName),
      middleName: normaliseName(payload.middleName),
      lastName: normaliseName(payload.lastName),
      dob: payload.dob.trim(),
      ssn,
      address,
    });
    if (!decision.approved) {
      request.log.info('registration refused by identity verification (APPLICATION_DENIED)');
      return reply.code(403).send({ statusCode: RegistrationResult.APPLICATION_DENIED });
    }

    const unlockCodeHash = await hashSecret(payload.unlockCode);
    const userId = crypto.randomUUID();
    const user = {
      id: userId,
      email: identity.email,
      firstName: normaliseName(payload.firstName),
      middleName: normaliseName(payload.middleName) || null,
      lastName: normaliseName(payload.lastName),
      dob: payload.dob.trim(),
      ssnEncrypted: encryptSsn(ssn, config.ssnEncryptionKey, userId),
      ssnHash: identity.ssnHash,
      phone,
      ...address,
      addressKey: identity.addressKey,
      ebtAccountId,
      providersUuid: identity.providersUuid,
      passwordHash: null,
      unlockCodeHash,
      registrationWave: waveFromProfile(payload.profile),
    };

    // One transaction: the token is spent, and the user, account, card and agreements exist, or none of it.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.transaction(async (tx) => {
          const spent = await tx
            .update(mfaTokens)
            .set({ usedAt: sql`now()` })
            .where(and(eq(mfaTokens.id, token.id), eq(mfaTokens.phone, phone), isNull(mfaTokens.usedAt), sql`${mfaTokens.expiresAt} > now()`))
            .returning({ id: mfaTokens.id });
          if (spent.length === 0) throw new MfaTokenNotUsable();
          await tx.insert(users).values(user);
          const [account] = await tx
            .insert(accounts)
            .values({ userId, prn: `4000${randomDigits(8)}` })
            .returning({ id: accounts.id });
          await tx.insert(cards).values({
            accountId: account!.id,
            type: 'VIRTUAL',
            status: 'ACTIVE',
            isActive: true,
            lastFour: randomDigits(4),
            expiry: virtualCardExpiry(new Date()),
          });
          await tx.insert(agreementAcceptances).values(agreementKinds.map((kind) => ({ userId, kind })));
        });
        break;
      } catch (error) {
        if (error instanceof MfaTokenNotUsable) return failedValidation(reply, { phone: ServerFieldError.phoneUnverified });
        const constraint = brokenUniqueConstraint(error);
        if (constraint !== undefined && takenConstraints.has(constraint)) {
          // Another registration with the same identity committed first.
          request.log.info('registration refused: identity already has an account (CIP_TAKEN)');
          return reply.code(403).send({ statusCode: RegistrationResult.CIP_TAKEN });
        }
        // A new account number that happens to exist already: draw another.
        if (constraint === 'accounts_prn_unique' && attempt < 3) continue;
        // The database error's text carries the insert's values (names, email, phone, date of birth):
        // log only what identifies the failure.
        request.log.error({ dbCode: databaseErrorCode(error), constraint }, 'registration could not be stored');
        throw new Error('Registration could not be stored.');
      }
    }

    const tokens = await sessions.startSession(userId);
    return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: false };
  });

  app.post('/set-unlock-code', { preHandler: requireAccess(sessions) }, async (request, reply) => {
    const body = validBody(setUnlockCodeSchema, request, reply);
    if (!body) return reply;
    const unlockCodeHash = await hashSecret(body.unlockCode);
    // After an unlock lockout only /reset-unlock-code (with the SSN) sets a new code: a password alone does not.
    const updated = await db
      .update(users)
      .set({ unlockCodeHash, unlockFailures: 0 })
      .where(and(eq(users.id, request.access.userId), lt(users.unlockFailures, unlockAttemptLimit)))
      .returning({ id: users.id });
    if (updated.length === 0) return reply.code(403).send({ statusCode: StatusCode.NOT_ALLOWED });
    return { statusCode: StatusCode.SUCCESS };
  });
}

/** A new virtual card's expiry, `MM/YY`, four years on. */
function virtualCardExpiry(today: Date): string {
  const month = String(today.getUTCMonth() + 1).padStart(2, '0');
  return `${month}/${String((today.getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
}

/** The Companion-Authorization bearer token is the companion app's token for exactly this uuid. */
async function isCompanionUser(request: FastifyRequest, providersUuid: string, config: ServerConfig): Promise<boolean> {
  const header = String(request.headers['companion-authorization'] ?? '');
  const token = /^Bearer (\S+)$/.exec(header)?.[1];
  if (!token) return false;
  const check = await verifyCompanionToken(token, config.companionTokenSecret);
  return check.ok && check.claims.uuid === providersUuid;
}
