/**
 * The session (spec §7): sign-in (with a texted code when the cardholder needs one), sign-in inside
 * the companion app, sign-out, unlock (refresh-tokens), unlock-code reset and password reset.
 */
import type { FastifyInstance } from 'fastify';
import { readersLanguage } from '../../shared/readersLanguage.ts';
import { normalisePassword } from '../../../contract/rules.ts';
import { checkPhoneOnFile } from '../../../contract/identity/rules.ts';
import { sessionRoutes as routes } from '../../../contract/session/routes.ts';
import { sessionSchemas } from '../../../contract/session/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { ServerFieldError } from '../../../contract/validation.ts';
import {
  type AttemptPolicy,
  deviceSubject,
  emailSubject,
  ipSubject,
  signInPerAccountPolicy,
  signInPerDevicePolicy,
  signInPerIpPolicy,
  signInPolicy,
  unlockAttemptLimit,
} from '../../attemptLimits.ts';
import { decoySecretHash, hashIsOutdated, hashSecret, keyedHash, verifySecret } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { bearerToken, failedValidation, signInRequired, tooMany } from '../../shared/http.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { noticeOwner } from '../../notices.ts';
import { passwordResetFeature } from './passwordReset.ts';
import { spendSsnToken } from '../../ssn.ts';
import { maskedPhone } from '../../textedCodes.ts';
import { checkUnlockCodeOf, clearWrongUnlockCodes, refuseUnlockCode } from '../../unlockCodes.ts';
import { renewPasswordHash, resetAnsweredBefore, storeResetUnlockCode, userByCompanionUuid, userByEmail } from './unlock.ts';

/**
 * Passwords are hashed NFKC-normalised. One set before that, with characters NFKC changes, was
 * hashed as typed: compared that way too, only when the normalised form does not match. `outdated`:
 * the hash should be made again from the normalised password (it was of the password as typed, or at
 * an older scrypt cost).
 */
async function passwordAgainstHash(password: string, hash: string): Promise<{ matches: boolean; outdated: boolean }> {
  const normalised = normalisePassword(password);
  if (await verifySecret(normalised, hash)) return { matches: true, outdated: hashIsOutdated(hash) };
  const matches = normalised !== password && (await verifySecret(password, hash));
  return { matches, outdated: matches };
}

export function sessionFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, sessionSchemas);
  const { db, sessions, limits, textedCodes, config } = services;

  /**
   * Spec §7 /sign-in, with a texted code for cardholders who need one (spec §8 MFA_REQUIRED). Wrong
   * email or password is counted per client (server/attemptLimits.ts): per email and IP, per IP and
   * per device across emails, and per email from anywhere at a much higher bar. A client over any of
   * them is refused before the password is hashed; unknown emails are counted and answered alike.
   */
  serve(
    routes.signIn,
    async ({ email, password, code }, request, reply) => {
      const subject = emailSubject(email);
      const ip = ipSubject(request.ip);
      const device = deviceSubject(request.headers['device-uuid']);
      const counters: [AttemptPolicy, string][] = [
        [signInPolicy, `${subject} ${ip}`],
        [signInPerAccountPolicy, subject],
        [signInPerIpPolicy, ip],
        ...(device ? [[signInPerDevicePolicy, device] as [AttemptPolicy, string]] : []),
      ];
      // Every counter takes this try before the password is compared (reserveTry): a burst of parallel
      // guesses gets at most each limit compared, not every guess that arrives before a failure counts.
      const tries = await Promise.all(counters.map(([policy, counterSubject]) => limits.reserveTry(policy, counterSubject)));
      const giveBack = () =>
        Promise.all(counters.map(([policy, counterSubject], i) => (tries[i]!.reserved ? limits.giveBack(policy, counterSubject) : undefined)));
      const refusedWait = Math.max(0, ...tries.map((each) => (each.reserved ? 0 : each.retryAfterSeconds)));
      if (refusedWait > 0) {
        // Not compared: the counters that took it give it back.
        await giveBack();
        return reply.code(401).send({ statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds: refusedWait });
      }

      const user = await userByEmail(db, email);
      const passwordCheck = await passwordAgainstHash(password, user?.passwordHash ?? decoySecretHash);
      if (!user || !passwordCheck.matches) {
        const waits = await Promise.all(counters.map(([policy, counterSubject]) => limits.lockWhenSpent(policy, counterSubject)));
        const retryAfterSeconds = Math.max(...waits);
        return reply
          .code(401)
          .send(retryAfterSeconds > 0 ? { statusCode: StatusCode.INVALID_CREDENTIALS, retryAfterSeconds } : { statusCode: StatusCode.INVALID_CREDENTIALS });
      }
      // The right password is no failure, whatever comes next (a texted code).
      await giveBack();

      if (user.mfaRequired) {
        const phone = maskedPhone(user.phone);
        if (checkPhoneOnFile(user.phone)) return reply.code(401).send({ statusCode: StatusCode.INVALID_PHONE_NUMBER, phone });
        if (code === undefined) {
          const issued = await textedCodes.issue(user.phone, 'sign-in', readersLanguage(request));
          if (issued.kind === 'limit') return tooMany(reply, issued.retryAfterSeconds);
          const statusCode = {
            landline: StatusCode.INVALID_PHONE_LANDLINE,
            failed: StatusCode.MFA_ERROR,
            sent: StatusCode.MFA_REQUIRED,
          }[issued.kind];
          return reply.code(401).send({ statusCode, phone });
        }
        const checked = await textedCodes.check(user.phone, 'sign-in', code);
        if (checked.kind === 'locked') return tooMany(reply, checked.retryAfterSeconds);
        if (checked.kind === 'spent') return reply.code(401).send({ statusCode: StatusCode.INVALID_MFA_CODE });
        if (checked.kind === 'wrong') {
          // A wrong code is a failure of the account's own count too, so its ceiling of failures in a row
          // (NIST SP 800-63B §5.2.2) bounds codes guessed behind a known password, which the phone's wait
          // alone (5 per 10 minutes) would let go on, 720 a day. Its right password gave its try back above.
          const accountTry = await limits.reserveTry(signInPerAccountPolicy, subject);
          const accountWait = accountTry.reserved ? await limits.lockWhenSpent(signInPerAccountPolicy, subject) : accountTry.retryAfterSeconds;
          if (accountWait > 0) return tooMany(reply, accountWait);
          return reply
            .code(401)
            .send(
              checked.attemptsLeft === undefined
                ? { statusCode: StatusCode.INVALID_MFA_CODE }
                : { statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: checked.attemptsLeft },
            );
        }
      }

      if (passwordCheck.outdated && user.passwordHash) await renewPasswordHash(db, user.id, user.passwordHash, await hashSecret(normalisePassword(password)));
      // The client's counters across emails stay: a sprayer's own account must not reset them.
      await Promise.all(counters.slice(0, 2).map(([policy, counterSubject]) => limits.reset(policy, counterSubject)));
      // Earlier wrong unlock codes still count: after a lockout only an unlock-code reset (SSN) clears them.
      const tokens = await sessions.startSession(user.id);
      return {
        statusCode: StatusCode.SUCCESS,
        ...tokens,
        isInternal: user.isInternal,
        mustResetUnlockCode: user.unlockFailures >= unlockAttemptLimit,
      };
    },
    { brokenRule: 'badRequest' },
  );

  /** Sign-in from inside the companion benefits app: the cardholder linked to the companion user gets a card session. */
  serve(
    routes.providersSignIn,
    async (_body, request, reply) => {
      const user = await userByCompanionUuid(db, request.companion.uuid);
      // A companion user without a card account: registration (embedded only) comes first.
      if (!user) return reply.code(403).send({ statusCode: StatusCode.NOT_ALLOWED });
      // Like a password sign-in, this does not end an unlock-code lockout: that takes the SSN reset.
      const tokens = await sessions.startSession(user.id);
      return {
        statusCode: StatusCode.SUCCESS,
        ...tokens,
        isInternal: user.isInternal,
        mustResetUnlockCode: user.unlockFailures >= unlockAttemptLimit,
      };
    },
    { brokenRule: 'badRequest' },
  );

  /** Ends the session on the server: the refresh-token family is revoked, so its access tokens stop too. */
  serve(routes.signOut, async (_body, request) => {
    const presented = bearerToken(request);
    if (presented) {
      const found = await sessions.findRefreshToken(presented);
      if (found.ok) await sessions.revokeFamily(found.row.familyId);
      else {
        const access = await sessions.checkAccessToken(presented);
        if (access.ok) await sessions.revokeFamily(access.claims.familyId);
      }
    }
    return { statusCode: StatusCode.SUCCESS };
  });

  serve(
    routes.refreshTokens,
    async ({ unlockCode }, request, reply) => {
      const session = request.refreshSession;
      // The same check and counter as Manage account's change of unlock code (server/unlockCodes.ts).
      const check = await checkUnlockCodeOf(db, sessions, session, unlockCode);
      if (check.kind !== 'right') return refuseUnlockCode(reply, check);
      const { user } = check;

      const tokens = await sessions.rotate(session, request.refreshUse);
      if (!tokens) return signInRequired(reply);
      await clearWrongUnlockCodes(db, user.id);
      return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user.isInternal };
    },
    { brokenRule: 'badRequest' },
  );

  /**
   * Spends the ssnToken of POST /verify/ssn/logged-in-refresh-token, stores the new code, ends the
   * unlock lockout and rotates the refresh token: the only way out of an unlock lockout.
   * The same reset sent again after it was done (its answer lost on the way: the app keeps the token
   * and the code typed, and sends them again with the refresh token it had) is answered as the first,
   * with the same new refresh token and a new access token, storing and telling nothing again: the
   * spent ssnToken keeps a keyed hash of the code it set, and the refresh token, presented again by
   * its device within the lost answer's grace, gives the successor it already has (server/sessions.ts).
   * Another code, or the spent refresh token out of that grace, is refused as before.
   */
  serve(routes.resetUnlockCode, async ({ ssnToken, unlockCode }, request, reply) => {
    const session = request.refreshSession;
    const reset = keyedHash(config.ssnHashKey, 'unlock-code-reset', `${session.userId}:${unlockCode}`);
    // Hashed before the token is spent, so the spend and what follows stay close together.
    const unlockCodeHash = await hashSecret(unlockCode);
    if (!(await spendSsnToken(db, ssnToken, session.userId, 'reset-unlock-code'))) {
      const before = request.refreshUse.successor ? await resetAnsweredBefore(db, ssnToken, session.userId, reset) : null;
      const tokens = before && (await sessions.rotate(session, request.refreshUse));
      if (before && tokens) {
        request.log.info('unlock code reset answered again');
        return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: before.isInternal };
      }
      return failedValidation(reply, { ssnToken: ServerFieldError.ssnTokenUnverified });
    }
    // Same rules as /refresh-tokens: a spent refresh token presented again revokes its family.
    const tokens = await sessions.rotate(session, request.refreshUse);
    if (!tokens) return signInRequired(reply);
    const owner = await storeResetUnlockCode(db, session.userId, unlockCodeHash, ssnToken, reset);
    if (owner) await noticeOwner(services.partners, owner, 'unlockCode', request);
    request.log.info('unlock code reset');
    return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: owner?.isInternal ?? false };
  });

  passwordResetFeature(app, services);
}
