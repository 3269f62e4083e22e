/**
 * Identity (spec §3-§5, §7): email and phone lookups, phone verification by texted code, address
 * verification, POST /register, SSN verification and agreements. The card API is the authority on
 * every rule: requests are checked with the same rules as the forms (contract/rules.ts through
 * contract/validation.ts), and limits, lockouts and uniqueness live in the database.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readersLanguage } from '../../shared/readersLanguage.ts';
import { identityRoutes as routes } from '../../../contract/identity/routes.ts';
import { identitySchemas } from '../../../contract/identity/schemas.ts';
import { RegistrationResult } from '../../../contract/identity/types.ts';
import { phoneDigits } from '../../../contract/rules.ts';
import { normaliseAddress } from '../../../contract/identity/rules.ts';
import { ebtAccountIdPattern } from '../../../contract/shared/route.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { ServerFieldError } from '../../../contract/validation.ts';
import { type CompanionClaims, verifyCompanionToken } from '../../companionTokens.ts';
import type { ServerConfig } from '../../config.ts';
import { optOutAllowed } from '../../partners/address.ts';
import { addressCheckLimit, textsLimit } from '../../attemptLimits.ts';
import type { Services } from '../../services.ts';
import { badRequest, bearerOf, failedValidation, signInRequired, tooMany } from '../../shared/http.ts';
import { clientWait } from '../../shared/clientLimits.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { checkAccountSsn, issueSsnToken, refuseSsn } from '../../ssn.ts';
import { countWrongUnlockAnswer } from '../../unlockCodes.ts';
import { agreementDocument } from './agreementDocuments.ts';
import { acceptAgreements, acceptedVersion } from './agreements.ts';
import { emailInUse, lookupWait, lookupWaitSoFar, phoneInUse, ssnAccountByEmail, ssnAccountById } from './lookups.ts';
import { issueMfaToken, usableMfaToken } from './mfaTokens.ts';
import { registerCardholder } from './registration.ts';

/** What the companion app's token in Companion-Authorization says of its user, or null without a valid one. */
async function companionClaims(request: FastifyRequest, config: ServerConfig): Promise<CompanionClaims | null> {
  const token = bearerOf(String(request.headers['companion-authorization'] ?? ''));
  if (!token) return null;
  const check = await verifyCompanionToken(token, config.companionTokenSecret);
  return check.ok ? check.claims : null;
}

/** What password reset (session) needs of identity: the client's lookup limit, the SSN account, the phone's proof. */
export { lookupWait, ssnAccountByEmail } from './lookups.ts';
export { isSpentBy, issueMfaToken, spendMfaToken, usableMfaToken } from './mfaTokens.ts';

export function identityFeature(app: FastifyInstance, services: Services): void {
  const { serve, serveChecked } = routeServer(app, services, identitySchemas);
  const { db, limits, textedCodes, partners, config } = services;

  serve(routes.verifyEmail, async ({ email }, request, reply) => {
    const wait = await lookupWait(limits, request);
    if (wait > 0) return tooMany(reply, wait);
    return (await emailInUse(db, email)) ? { statusCode: StatusCode.SUCCESS } : reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });

  serve(routes.phoneNumberInUse, async ({ phone }, request, reply) => {
    const wait = await lookupWait(limits, request);
    if (wait > 0) return tooMany(reply, wait);
    return { statusCode: StatusCode.SUCCESS, inUse: await phoneInUse(db, phoneDigits(phone)) };
  });

  // A phone that breaks the phone rule is a result here (INVALID_PHONE_NUMBER), not a field error.
  serveChecked(routes.requestVerification, async (body, request, reply) => {
    if (body.kind === 'invalid') return { statusCode: StatusCode.INVALID_PHONE_NUMBER };
    const wait = await clientWait(limits, request, textsLimit);
    if (wait > 0) return tooMany(reply, wait);
    const issued = await textedCodes.issue(phoneDigits(body.value.phone), 'register', readersLanguage(request));
    if (issued.kind === 'limit') return tooMany(reply, issued.retryAfterSeconds);
    if (issued.kind === 'landline') return { statusCode: StatusCode.INVALID_PHONE_LANDLINE };
    if (issued.kind === 'failed') return { statusCode: StatusCode.MFA_ERROR };
    return { statusCode: StatusCode.SUCCESS };
  });

  serveChecked(routes.verifyPhone, async (body, _request, reply) => {
    if (body.kind === 'invalid') return { statusCode: StatusCode.INVALID_PHONE_NUMBER };
    const phone = phoneDigits(body.value.phone);
    const checked = await textedCodes.check(phone, 'register', body.value.code);
    if (checked.kind === 'locked') return tooMany(reply, checked.retryAfterSeconds);
    if (checked.kind === 'spent') return { statusCode: StatusCode.INVALID_MFA_CODE };
    if (checked.kind === 'wrong') {
      return checked.attemptsLeft === undefined
        ? { statusCode: StatusCode.INVALID_MFA_CODE }
        : { statusCode: StatusCode.INVALID_MFA_CODE, attemptsLeft: checked.attemptsLeft };
    }
    return { statusCode: StatusCode.SUCCESS, mfaToken: await issueMfaToken(db, phone, 'register') };
  });

  serve(routes.verifyAddress, async (address, request, reply) => {
    const wait = await clientWait(limits, request, addressCheckLimit);
    if (wait > 0) return tooMany(reply, wait);
    const check = await partners.address.verify(normaliseAddress(address));
    if (check.ok) return { statusCode: StatusCode.SUCCESS };
    return optOutAllowed(check.statusCode) ? { statusCode: check.statusCode, optOutAllowed: true } : { statusCode: check.statusCode };
  });

  serveChecked(routes.register, async (body, request, reply) => {
    const ebtHeader = request.headers['ebt-account-id'];
    if (ebtHeader !== undefined && (typeof ebtHeader !== 'string' || !ebtAccountIdPattern.test(ebtHeader.trim()))) {
      return badRequest(reply);
    }
    if (body.kind === 'invalid') {
      const { mfaToken, ...fieldErrors } = body.fieldErrors;
      // The token stands for the phone's verification: the phone field shows it.
      if (mfaToken && !fieldErrors.phone) fieldErrors.phone = mfaToken;
      return failedValidation(reply, fieldErrors);
    }
    // A CIP_TAKEN answer says whether an identity has an account: a client over the lookup limit is
    // refused before any work, and every CIP_TAKEN is counted as a lookup (docs/security.md item 5).
    const waitSoFar = await lookupWaitSoFar(limits, request);
    if (waitSoFar > 0) return tooMany(reply, waitSoFar);
    // It checks the address with the paid partner again, as POST /verify-address does: the same limit.
    const addressWait = await clientWait(limits, request, addressCheckLimit);
    if (addressWait > 0) return tooMany(reply, addressWait);
    const payload = body.value;
    const companion = await companionClaims(request, config);
    // Linking a companion user takes that user's own token, so nobody can claim another's uuid.
    if (payload.providersUuid && companion?.uuid !== payload.providersUuid) {
      return failedValidation(reply, { providersUuid: ServerFieldError.providersUuidUnverified });
    }
    // The same for an EBT account: the header is linked (and held to one account per EBT id) only when
    // the companion app's token names that account. Anyone may send the header, and a stranger's EBT id
    // linked to their application would refuse its owner's as taken. Without that word the account
    // opens unlinked.
    const ebtAccountId = ebtHeader?.trim().toUpperCase() || null;
    const vouched = ebtAccountId !== null && companion?.ebtAccountId?.trim().toUpperCase() === ebtAccountId;
    if (ebtAccountId && !vouched) request.log.info('EBT-Account-ID not named by a companion token: not linked');
    const registration = await registerCardholder(services, payload, vouched ? ebtAccountId : null, request.log);
    if (registration.kind === 'invalid') return failedValidation(reply, registration.fieldErrors);
    if (registration.kind === 'refused') {
      if (registration.statusCode === RegistrationResult.CIP_TAKEN) {
        const wait = await lookupWait(limits, request);
        if (wait > 0) return tooMany(reply, wait);
      }
      return reply.code(403).send({ statusCode: registration.statusCode });
    }
    // The same application is still being answered (its first request): the app tries again shortly.
    if (registration.kind === 'pending') return reply.code(409).send({ statusCode: StatusCode.UNEXPECTED_ERROR });
    const tokens = await services.sessions.startSession(registration.userId);
    return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: false };
  });

  // Password reset: like /change-password, the SSN is not even looked at without the proof of the
  // account's phone (no anonymous SSN guessing, nor locking the owner out of their resets).
  serve(routes.verifySsn, async ({ email, ssn, mfaToken }, request, reply) => {
    // An email with an account takes longer to refuse (its token is looked up): an account lookup per client, as in /verify/reset-code.
    const looked = await lookupWait(limits, request);
    if (looked > 0) return tooMany(reply, looked);
    const user = await ssnAccountByEmail(db, email);
    if (!user || !(await usableMfaToken(db, mfaToken, user.phone, 'reset-password'))) return failedValidation(reply, { mfaToken: ServerFieldError.phoneUnverified });
    const check = await checkAccountSsn(limits, config.ssnHashKey, user, email, ssn);
    if (check.kind !== 'match') return refuseSsn(reply, check);
    request.log.info('SSN verified for a password reset');
    return { statusCode: StatusCode.SUCCESS, ssnToken: await issueSsnToken(db, user.id, 'reset-password') };
  });

  // Unlock-code reset: the SSN of the refresh token's holder, for POST /reset-unlock-code.
  serve(routes.verifySsnWithRefreshToken, async ({ ssn }, request, reply) => {
    const user = await ssnAccountById(db, request.refreshSession.userId);
    if (!user) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const check = await checkAccountSsn(limits, config.ssnHashKey, user, user.email, ssn);
    if (check.kind !== 'match') {
      // A wrong SSN is a wrong answer of the session's holder too: it counts toward the unlock lockout,
      // which ends every session at its limit (server/unlockCodes.ts). The tries left are the fewer of
      // the two limits', so the screen never promises a try that would end every session instead.
      const compared = check.kind === 'wrong' || check.afterWrong;
      const unlockTriesLeft = compared ? await countWrongUnlockAnswer(db, services.sessions, user.id) : null;
      if (unlockTriesLeft === 0) return signInRequired(reply);
      if (check.kind === 'wrong' && unlockTriesLeft !== null) return refuseSsn(reply, { ...check, attemptsLeft: Math.min(check.attemptsLeft, unlockTriesLeft) });
      return refuseSsn(reply, check);
    }
    request.log.info('SSN verified for an unlock-code reset');
    return { statusCode: StatusCode.SUCCESS, ssnToken: await issueSsnToken(db, user.id, 'reset-unlock-code') };
  });

  serve(
    routes.acceptAgreement,
    async ({ legal }, request) => {
      await acceptAgreements(db, request.access.userId, legal);
      return { statusCode: StatusCode.SUCCESS };
    },
    { brokenRule: 'badRequest' },
  );

  serve(
    routes.acceptedAgreement,
    async ({ agreement }, request) => ({ statusCode: StatusCode.SUCCESS, ...(await acceptedVersion(db, request.access.userId, agreement)) }),
    { brokenRule: 'badRequest' },
  );

  // Anonymous: the texts are read before anyone agrees.
  serve(routes.agreementDocument, async ({ kind, locale }) => ({ statusCode: StatusCode.SUCCESS, agreement: agreementDocument(kind, locale) }), {
    brokenRule: 'badRequest',
  });
}
