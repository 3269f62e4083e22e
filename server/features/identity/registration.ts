/**
 * POST /register's work (spec §3-§5): the mfaToken, the address checked again, the identity not used
 * by another account, the token spent, identity verification, then one transaction that creates the
 * user, account, virtual card and agreements.
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { agreementKinds, agreementVersions, type RegistrationPayload, RegistrationResult } from '../../../contract/identity/types.ts';
import type { FieldErrors } from '../../../contract/shared/answers.ts';
import { phoneDigits, normaliseEmail } from '../../../contract/rules.ts';
import { normaliseAddress, normaliseName } from '../../../contract/identity/rules.ts';
import { addressFieldError, ServerFieldError } from '../../../contract/validation.ts';
import type { Database } from '../../db/database.ts';
import { accounts, addressKeyOf, agreementAcceptances, cards, mfaTokens, users } from '../../db/schema/index.ts';
import { isUnitProblem } from '../../partners/address.ts';
import { hashSecret, hashToken, keyedHash, randomDigits } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { sealDob } from '../../datesOfBirth.ts';
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

type Outcome = (typeof mfaTokens.$inferSelect)['registrationOutcome'] & string;

/** The longest the identity check is waited for: past it the registration fails (the token given back). */
export const identityCheckSeconds = 60;
/**
 * A token spent this long ago with no outcome was spent by a registration that should no longer be
 * running (the identity check's limit, then one transaction): its server died. Nothing was stored (an
 * account records its outcome in the transaction that opens it), so the same application may run again.
 * A run that comes back after all (a paused server) gives back only its own spend (restoreMfaToken)
 * and writes no outcome over the other's (recordOutcome).
 */
export const registrationLostAfterSeconds = 180;

/** The identity check, refused after `identityCheckSeconds` so a registration's time is bounded. */
function identityCheckWithin<T>(check: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The identity check did not answer in time.')), identityCheckSeconds * 1000);
  });
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}

/**
 * The application as one keyed hash (the SSN and the unlock code are in it, so it is keyed like the
 * SSN's): the same application sent again has the same hash, any field changed another.
 */
function applicationHashOf(key: Buffer, payload: RegistrationPayload, address: ReturnType<typeof normaliseAddress>, ebtAccountId: string | null): string {
  const application = [
    normaliseName(payload.firstName),
    normaliseName(payload.middleName),
    normaliseName(payload.lastName),
    payload.dob.trim(),
    ssnDigits(payload.ssn),
    normaliseEmail(payload.email),
    phoneDigits(payload.phone),
    address,
    payload.unlockCode,
    payload.providersUuid,
    ebtAccountId,
    payload.profile,
  ];
  return keyedHash(key, 'registration-application', JSON.stringify(application));
}

/**
 * What became of this application when it spent this token before, while the token would still be
 * live: the app sends it again when the answer was lost (a dropped connection, its time limit).
 * Answered "verify your phone again", the applicant went on to "already used by another account" and
 * never reached the account opened. `pending` while the first is still being answered (or was lost).
 */
async function earlierOutcome(db: Database, mfaToken: string, phone: string, applicationHash: string) {
  const [earlier] = await db
    .select({
      id: mfaTokens.id,
      outcome: mfaTokens.registrationOutcome,
      userId: mfaTokens.registeredUserId,
    })
    .from(mfaTokens)
    .where(
      and(
        eq(mfaTokens.tokenHash, hashToken(mfaToken)),
        eq(mfaTokens.purpose, 'register'),
        eq(mfaTokens.phone, phone),
        eq(mfaTokens.applicationHash, applicationHash),
        sql`${mfaTokens.expiresAt} > now()`,
      ),
    );
  return earlier && { ...earlier, outcome: earlier.outcome ?? ('pending' as const) };
}

/**
 * Gives back a token spent with no outcome by a registration that was lost (registrationLostAfterSeconds):
 * true when this request did, so of two retries at once one runs the application again, the other waits.
 */
async function reclaimLostToken(db: Database, token: { id: string }): Promise<boolean> {
  const reclaimed = await db
    .update(mfaTokens)
    .set({ usedAt: null, applicationHash: null })
    .where(
      and(
        eq(mfaTokens.id, token.id),
        isNull(mfaTokens.registrationOutcome),
        sql`${mfaTokens.usedAt} < now() - make_interval(secs => ${registrationLostAfterSeconds})`,
      ),
    )
    .returning({ id: mfaTokens.id });
  return reclaimed.length === 1;
}

/**
 * The outcome of the application that spent this token (an account opened: in the transaction that
 * opens it). Written once: a run that was thought lost and came back never overwrites another's.
 */
async function recordOutcome(db: Pick<Database, 'update'>, token: { id: string }, outcome: Outcome, userId: string | null = null): Promise<void> {
  await db
    .update(mfaTokens)
    .set({ registrationOutcome: outcome, registeredUserId: userId })
    .where(and(eq(mfaTokens.id, token.id), isNull(mfaTokens.registrationOutcome)));
}

export type Registration =
  | { kind: 'registered'; userId: string }
  | { kind: 'invalid'; fieldErrors: FieldErrors }
  | { kind: 'refused'; statusCode: typeof RegistrationResult.APPLICATION_DENIED | typeof RegistrationResult.CIP_TAKEN }
  /** The same application, sent again while the first is still being answered. */
  | { kind: 'pending' };

/** Registers a checked payload; `ebtAccountId` from the header, upper case, or null. */
export async function registerCardholder(
  services: Services,
  payload: RegistrationPayload,
  ebtAccountId: string | null,
  log: FastifyBaseLogger,
): Promise<Registration> {
  const { db, config, partners } = services;
  const phone = phoneDigits(payload.phone);
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
  const taken = { kind: 'refused', statusCode: RegistrationResult.CIP_TAKEN } as const;
  const applicationHash = applicationHashOf(config.ssnHashKey, payload, address, ebtAccountId);
  /** The token is spent: by this application before (answered as then, or as its other run), or by another. */
  const answeredBefore = async (): Promise<Registration> => {
    const earlier = await earlierOutcome(db, payload.mfaToken, phone, applicationHash);
    if (!earlier) return { kind: 'invalid', fieldErrors: { phone: ServerFieldError.phoneUnverified } };
    log.info({ outcome: earlier.outcome }, 'registration answered as its spent token records');
    if (earlier.outcome === 'opened' && earlier.userId) return { kind: 'registered', userId: earlier.userId };
    if (earlier.outcome === 'denied') return { kind: 'refused', statusCode: RegistrationResult.APPLICATION_DENIED };
    if (earlier.outcome === 'taken') return taken;
    if (await reclaimLostToken(db, earlier)) {
      log.warn('registration sent again after its first was lost with its server: run again');
      return registerCardholder(services, payload, ebtAccountId, log);
    }
    return { kind: 'pending' };
  };
  const token = await usableMfaToken(db, payload.mfaToken, phone, 'register');
  if (!token) return answeredBefore();

  // Checked again here, whatever the app saw at POST /verify-address.
  const addressCheck = await partners.address.verify(address);
  if (!addressCheck.ok) {
    const field = isUnitProblem(addressCheck.statusCode) ? 'addressLegal.street2' : 'addressLegal';
    return { kind: 'invalid', fieldErrors: { [field]: addressFieldError(addressCheck.statusCode) } };
  }

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
  const spend = await spendMfaToken(db, token, applicationHash);
  if (!spend) return answeredBefore();
  const decision = await identityCheckWithin(
    partners.identity.verify({
      firstName: normaliseName(payload.firstName),
      middleName: normaliseName(payload.middleName),
      lastName: normaliseName(payload.lastName),
      dob: payload.dob.trim(),
      ssn,
      address,
    }),
  ).catch(async (error: unknown) => {
    await restoreMfaToken(db, token, spend);
    throw error;
  });
  if (!decision.approved) {
    log.info('registration refused by identity verification (APPLICATION_DENIED)');
    await recordOutcome(db, token, 'denied');
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
    dob: sealDob(payload.dob, config.ssnEncryptionKey, userId),
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
        await recordOutcome(tx, token, 'opened', userId);
      });
      return { kind: 'registered', userId };
    } catch (error) {
      const constraint = brokenUniqueConstraint(error);
      if (constraint !== undefined && takenConstraints.has(constraint)) {
        // Another registration with the same identity committed first: answered as what the token
        // records, which is the account opened when that other was this application's lost run.
        log.info('registration refused: identity already has an account (CIP_TAKEN)');
        await recordOutcome(db, token, 'taken');
        return answeredBefore();
      }
      // A new account number that happens to exist already: draw another.
      if (constraint === 'accounts_prn_unique' && attempt < 3) continue;
      // The database error's text carries the insert's values (names, email, phone, date of birth):
      // log only what identifies the failure.
      log.error({ dbCode: databaseErrorCode(error), constraint }, 'registration could not be stored');
      // Nothing was stored: the phone's proof may be used again, as after a failed identity check.
      await restoreMfaToken(db, token, spend);
      throw new Error('Registration could not be stored.');
    }
  }
}
