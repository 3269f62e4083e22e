/**
 * A forgotten password (spec §2 /reset-password, §7 /reset-password, /change-password): a code texted
 * to the phone on file, then the SSN, then the new password. Email and SSN are often leaked together,
 * so the phone must be shown as well (its mfaToken). A stranger learns nothing about whether an email
 * has an account: /reset-password answers the same either way, and codes for an email without one
 * are wrong codes, counted the same way.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { readersLanguage } from '../../shared/readersLanguage.ts';
import { normaliseEmail, normalisePassword, ValidationMessage } from '../../../contract/rules.ts';
import { checkPhoneOnFile } from '../../../contract/identity/rules.ts';
import { sessionRoutes as routes } from '../../../contract/session/routes.ts';
import { sessionSchemas } from '../../../contract/session/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { ServerFieldError } from '../../../contract/validation.ts';
import { emailSubject, resetCodePerAccountPolicy, resetCodePolicy } from '../../attemptLimits.ts';
import { hashSecret, keyedHash, verifySecret } from '../../secrets.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/index.ts';
import type { Services } from '../../services.ts';
import { failedValidation, tooMany } from '../../shared/http.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { checkAccountSsn, refuseSsn, ssnDigits } from '../../ssn.ts';
import { isSpentBy, issueMfaToken, lookupWait, spendMfaToken, ssnAccountByEmail, usableMfaToken } from '../identity/index.ts';
import { isCommonPassword, isExpectedPassword } from './commonPasswords.ts';
import { storePassword, userByEmail } from './unlock.ts';
import { noticeOwner } from '../../notices.ts';

export function passwordResetFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, sessionSchemas);
  const { db, sessions, limits, textedCodes, config, afterAnswer } = services;

  /**
   * Counted as an account lookup per client (like /verify/email), so nobody texts strangers' phones
   * at will. Whatever happens to the text (no account, a phone that cannot get texts, the phone's own
   * limit), the answer is the same, and as soon: the code is texted once it has gone (afterAnswer).
   */
  serve(routes.sendResetCode, async ({ email }, request, reply) => {
    const wait = await lookupWait(limits, request);
    if (wait > 0) return tooMany(reply, wait);
    const user = await userByEmail(db, email);
    if (user && checkPhoneOnFile(user.phone) === null) {
      afterAnswer.run(request.log, 'texting a password reset code', async () => {
        const issued = await textedCodes.issue(user.phone, 'reset-password', readersLanguage(request));
        if (issued.kind !== 'sent') request.log.info({ result: issued.kind }, 'password reset code not texted');
      });
    }
    return { statusCode: StatusCode.SUCCESS };
  });

  /**
   * Wrong codes count per email (any email): 5 before a 10-minute wait, and 100 in a row before the
   * email's ceiling (resetCodePerAccountPolicy); for an account, per phone too, as every texted code
   * does. Each counts a try before the code is compared, so parallel guesses cannot outrun any limit.
   * An email with an account takes longer to answer (its phone's code is looked up): counted as an
   * account lookup per client first, so timing it tells no more than /verify/email would.
   */
  serve(routes.verifyResetCode, async ({ email, code }, request, reply) => {
    const looked = await lookupWait(limits, request);
    if (looked > 0) return tooMany(reply, looked);
    const subject = emailSubject(email);
    const tried = await limits.reserveTry(resetCodePolicy, subject);
    if (!tried.reserved) return tooMany(reply, tried.retryAfterSeconds);
    const inARow = await limits.reserveTry(resetCodePerAccountPolicy, subject);
    if (!inARow.reserved) {
      await limits.giveBack(resetCodePolicy, subject);
      return tooMany(reply, inARow.retryAfterSeconds);
    }
    const giveBoth = () => Promise.all([limits.giveBack(resetCodePolicy, subject), limits.giveBack(resetCodePerAccountPolicy, subject)]);
    const user = await userByEmail(db, email);
    const checked = user ? await textedCodes.check(user.phone, 'reset-password', code) : ({ kind: 'wrong' } as const);
    if (checked.kind === 'locked') {
      // The phone's wait, not a wrong code of this email's.
      await giveBoth();
      return tooMany(reply, checked.retryAfterSeconds);
    }
    if (checked.kind === 'spent') {
      // The right code sent again (its first answer lost): not a wrong one, and not accepted twice.
      // Only the code's holder gets here, so answering apart says nothing about who has an account.
      await giveBoth();
      return { statusCode: StatusCode.INVALID_MFA_CODE };
    }
    if (checked.kind === 'right' && user) {
      await Promise.all([limits.reset(resetCodePolicy, subject), limits.reset(resetCodePerAccountPolicy, subject)]);
      return { statusCode: StatusCode.SUCCESS, mfaToken: await issueMfaToken(db, user.phone, 'reset-password') };
    }
    // Every wrong code is recorded (its time keeps the counts going); the last one starts a wait.
    const ceilingWait = await limits.lockWhenSpent(resetCodePerAccountPolicy, subject);
    const attemptsLeft = Math.min(tried.attemptsLeft, inARow.attemptsLeft);
    if (tried.attemptsLeft > 0) await limits.recordWrong(resetCodePolicy, subject);
    const wait = Math.max(ceilingWait, tried.attemptsLeft > 0 ? 0 : await limits.lockWhenSpent(resetCodePolicy, subject));
    if (wait > 0) return tooMany(reply, wait);
    return { statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft };
  });

  /**
   * The SSN is checked again here under the same per-account limit as /verify/ssn, and the mfaToken
   * must prove the phone on file. A new password ends every session of the user, and the owner is told.
   * The token is spent in the transaction that stores the password and ends the sessions, with the
   * change's keyed hash: the same change sent again with the spent token (its answer lost on the way)
   * is answered `{0}` while its password is still the password, doing nothing again (no SSN compared
   * or counted, no sessions ended, no notice); any other change with a spent token is refused as before.
   */
  serve(routes.changePassword, async ({ email, ssn, password, mfaToken }, request, reply) => {
    // Before the SSN check, so refusing a weak password spends none of the SSN's attempts.
    if (isCommonPassword(normalisePassword(password))) return failedValidation(reply, { password: ValidationMessage.passwordCommon });
    // An email with an account takes longer to refuse (its token is looked up): an account lookup per client, as in /verify/reset-code.
    const looked = await lookupWait(limits, request);
    if (looked > 0) return tooMany(reply, looked);
    const owner = await userByEmail(db, email);
    // Without the phone's proof the SSN is not even looked at: no SSN guessing through this call.
    if (!owner) return failedValidation(reply, { mfaToken: ServerFieldError.phoneUnverified });
    const change = passwordChangeHashOf(config.ssnHashKey, email, ssn, password);
    /** The token is spent (or expired): by this same change, answered as done, or by another request. */
    const answeredBefore = async () => {
      if (await madeBefore(db, owner, mfaToken, change, password)) {
        request.log.info('password change sent again after it was made: answered as done');
        return { statusCode: StatusCode.SUCCESS };
      }
      return failedValidation(reply, { mfaToken: ServerFieldError.phoneUnverified });
    };
    const token = await usableMfaToken(db, mfaToken, owner.phone, 'reset-password');
    if (!token) return answeredBefore();
    // Only to the phone's owner, and before the SSN check too: the name, the email or "Providers".
    if (isExpectedPassword(normalisePassword(password), owner)) return failedValidation(reply, { password: ValidationMessage.passwordCommon });
    const user = await ssnAccountByEmail(db, email);
    const check = await checkAccountSsn(limits, config.ssnHashKey, user, email, ssn);
    if (check.kind !== 'match' || !user) return refuseSsn(reply, check.kind === 'match' ? { kind: 'wrong', attemptsLeft: 0 } : check);

    const passwordHash = await hashSecret(normalisePassword(password));
    // Sessions elsewhere end (someone else may have known the old password): with the password and the
    // token's spend, or none of it, so a change answered as done again has ended them.
    const changed = await db.transaction(async (tx) => {
      if (!(await spendMfaToken(tx, token, change))) return false;
      await storePassword(tx, user.id, passwordHash);
      await sessions.revokeUserFamilies(user.id, tx);
      return true;
    });
    // Spent meanwhile: by the same change sent at once (answered as done), or by another.
    if (!changed) return answeredBefore();
    // Sign-in starts afresh.
    await limits.resetSignIns(user.email);
    await noticeOwner(services.partners, owner, 'password', request);
    request.log.info('password changed by reset');
    return { statusCode: StatusCode.SUCCESS };
  });
}

/**
 * A password reset's change as one keyed hash (the SSN and the new password are in it, so it is keyed
 * like the SSN's, under its own purpose): the same change sent again has the same hash, another
 * password, SSN or email another.
 */
function passwordChangeHashOf(key: Buffer, email: string, ssn: string, password: string): string {
  const change = [normaliseEmail(email).toLowerCase(), ssnDigits(ssn), normalisePassword(password)];
  return keyedHash(key, 'password-reset-change', JSON.stringify(change));
}

/**
 * Whether this change was made with this token (spent by it, still within its 30 minutes) and its
 * password is still the owner's: read afresh, as a parallel request may have just stored it.
 */
async function madeBefore(db: Database, owner: { id: string; phone: string }, mfaToken: string, change: string, password: string): Promise<boolean> {
  if (!(await isSpentBy(db, mfaToken, owner.phone, 'reset-password', change))) return false;
  const [current] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, owner.id));
  return current?.passwordHash != null && (await verifySecret(normalisePassword(password), current.passwordHash));
}
