/**
 * POST /register's work (spec §3-§5): the mfaToken, the address checked again, the identity not used
 * by another account, the token spent, identity verification, then one transaction that creates the
 * user, account, virtual card and agreements.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { agreementKinds, agreementVersions, type RegistrationPayload, RegistrationResult } from '../../../contract/identity/types.ts';
import type { FieldErrors } from '../../../contract/shared/answers.ts';
import { digitsOf, normaliseEmail } from '../../../contract/rules.ts';
import { normaliseAddress, normaliseName } from '../../../contract/identity/rules.ts';
import { addressFieldError, ServerFieldError } from '../../../contract/validation.ts';
import type { Database } from '../../db/database.ts';
import { accounts, addressKeyOf, agreementAcceptances, cards, mfaTokens, users } from '../../db/schema/index.ts';
import { isUnitProblem } from '../../partners/address.ts';
import { hashSecret, hashToken, randomDigits } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { encryptSsn, ssnDigits, ssnHash } from '../../ssn.ts';
import { restoreMfaToken, spendMfaToken, usableMfaToken } from './mfaTokens.ts';
import { openCardholderLedgerAccount } from '../ledger/index.ts';

/** Registration waves (spec §4) a `profile` may choose; anything else registers with no wave. */
const profileWaves = ['snapback_test', 'snapback_test_500', 'cdg_gpm_trial', 'ebt_rewards_test_group'] as const;

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

function waveFromProfile(profile: string | null): string | null {
  if (!profile) return null;
  try {
    const wave: unknown = (JSON.parse(profile) as { registrationWave?: unknown } | null)?.registrationWave;
    return typeof wave === 'string' && (profileWaves as readonly string[]).includes(wave) ? wave : null;
  } catch {
    return null;
  }
}

/** A new virtual card's expiry, `MM/YY`, four years on. */
function virtualCardExpiry(today: Date): string {
  const month = String(today.getUTCMonth() + 1).padStart(2, '0');
  return `${month}/${String((today.getUTCFullYear() + 4) % 100).padStart(2, '0')}`;
}

type Identity = { ssnHash: string; email: string; phone: string; ebtAccountId: string | null; providersUuid: string | null };

/**
 * The cardholder a registration spending this token opened for the same person, while the token would
 * still be live. The app retries /register when its answer was lost (a dropped connection, its time
 * limit); answered "verify your phone again", the applicant went on to "already used by another
 * account" and never reached the account that was opened.
 */
async function openedWithToken(db: Database, mfaToken: string, identity: Identity): Promise<string | undefined> {
  const [opened] = await db
    .select({ userId: users.id })
    .from(mfaTokens)
    .innerJoin(users, eq(users.id, mfaTokens.registeredUserId))
    .where(
      and(
        eq(mfaTokens.tokenHash, hashToken(mfaToken)),
        eq(mfaTokens.purpose, 'register'),
        eq(mfaTokens.phone, identity.phone),
        sql`${mfaTokens.expiresAt} > now()`,
        eq(users.ssnHash, identity.ssnHash),
        sql`lower(${users.email}) = lower(${identity.email})`,
        sql`${users.ebtAccountId} is not distinct from ${identity.ebtAccountId}`,
        sql`${users.providersUuid} is not distinct from ${identity.providersUuid}`,
      ),
    );
  return opened?.userId;
}

export type Registration =
  | { kind: 'registered'; userId: string }
  | { kind: 'invalid'; fieldErrors: FieldErrors }
  | { kind: 'refused'; statusCode: typeof RegistrationResult.APPLICATION_DENIED | typeof RegistrationResult.CIP_TAKEN };

/** Registers a checked payload; `ebtAccountId` from the header, upper case, or null. */
export async function registerCardholder(
  { db, config, partners }: Services,
  payload: RegistrationPayload,
  ebtAccountId: string | null,
  log: FastifyBaseLogger,
): Promise<Registration> {
  const phone = digitsOf(payload.phone);
  const address = normaliseAddress(payload.addressLegal);
  const ssn = ssnDigits(payload.ssn);
  const identity = {
    ssnHash: ssnHash(ssn, config.ssnHashKey),
    email: normaliseEmail(payload.email),
    phone,
    addressKey: addressKeyOf(address),
    ebtAccountId,
    providersUuid: payload.providersUuid,
  };
  const token = await usableMfaToken(db, payload.mfaToken, phone, 'register');
  if (!token) {
    const openedBefore = await openedWithToken(db, payload.mfaToken, identity);
    if (openedBefore) {
      log.info('registration answered again: its account was opened with this token');
      return { kind: 'registered', userId: openedBefore };
    }
    return { kind: 'invalid', fieldErrors: { phone: ServerFieldError.phoneUnverified } };
  }

  // Checked again here, whatever the app saw at POST /verify-address.
  const addressCheck = await partners.address.verify(address);
  if (!addressCheck.ok) {
    const field = isUnitProblem(addressCheck.statusCode) ? 'addressLegal.street2' : 'addressLegal';
    return { kind: 'invalid', fieldErrors: { [field]: addressFieldError(addressCheck.statusCode) } };
  }

  const taken = { kind: 'refused', statusCode: RegistrationResult.CIP_TAKEN } as const;
  const [existing] = await db
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
  if (existing) {
    log.info('registration refused: identity already has an account (CIP_TAKEN)');
    return taken;
  }

  // The identity check is paid, and its answer says whether these details are a person's (an SSN
  // guessed for a known name, birth date and address): one check per proven phone. The token is spent
  // before it, so applications repeated or sent at once with one token get one check, and another
  // needs the phone proven again (its texts are limited); it is given back only when the check failed.
  if (!(await spendMfaToken(db, token))) return { kind: 'invalid', fieldErrors: { phone: ServerFieldError.phoneUnverified } };
  const decision = await partners.identity
    .verify({
      firstName: normaliseName(payload.firstName),
      middleName: normaliseName(payload.middleName),
      lastName: normaliseName(payload.lastName),
      dob: payload.dob.trim(),
      ssn,
      address,
    })
    .catch(async (error: unknown) => {
      await restoreMfaToken(db, token);
      throw error;
    });
  if (!decision.approved) {
    log.info('registration refused by identity verification (APPLICATION_DENIED)');
    return { kind: 'refused', statusCode: RegistrationResult.APPLICATION_DENIED };
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

  // One transaction: the user, account (with its ledger account), card and agreements exist, or none of it.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.transaction(async (tx) => {
        await tx.insert(users).values(user);
        const [account] = await tx
          .insert(accounts)
          .values({ userId, prn: `4000${randomDigits(8)}` })
          .returning({ id: accounts.id });
        await openCardholderLedgerAccount(tx, account!.id);
        await tx.insert(cards).values({
          accountId: account!.id,
          type: 'VIRTUAL',
          status: 'ACTIVE',
          isActive: true,
          lastFour: randomDigits(4),
          expiry: virtualCardExpiry(new Date()),
        });
        await tx.insert(agreementAcceptances).values(agreementKinds.map((kind) => ({ userId, kind, version: agreementVersions[kind] })));
        await tx.update(mfaTokens).set({ registeredUserId: userId }).where(eq(mfaTokens.id, token.id));
      });
      return { kind: 'registered', userId };
    } catch (error) {
      const constraint = brokenUniqueConstraint(error);
      if (constraint !== undefined && takenConstraints.has(constraint)) {
        // Another registration with the same identity committed first.
        log.info('registration refused: identity already has an account (CIP_TAKEN)');
        return taken;
      }
      // A new account number that happens to exist already: draw another.
      if (constraint === 'accounts_prn_unique' && attempt < 3) continue;
      // The database error's text carries the insert's values (names, email, phone, date of birth):
      // log only what identifies the failure.
      log.error({ dbCode: databaseErrorCode(error), constraint }, 'registration could not be stored');
      throw new Error('Registration could not be stored.');
    }
  }
}
