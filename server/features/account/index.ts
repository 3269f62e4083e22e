/** The signed-in cardholder's account (spec §7): GET /user and POST /set-unlock-code (with the current code). */
import type { FastifyInstance } from 'fastify';
import { accountRoutes as routes } from '../../../contract/account/routes.ts';
import { accountSchemas } from '../../../contract/account/schemas.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { hashSecret, keyedHash } from '../../secrets.ts';
import type { Services } from '../../services.ts';
import { routeServer } from '../../shared/routeServer.ts';
import { noticeOwner } from '../../notices.ts';
import { checkUnlockCodeOf, refuseUnlockCode } from '../../unlockCodes.ts';
import { isLastUnlockCodeChange, loadUser, storeUnlockCode } from './queries.ts';

export function accountFeature(app: FastifyInstance, services: Services): void {
  const { serve } = routeServer(app, services, accountSchemas);
  const { db, sessions, config } = services;

  serve(routes.getUser, async (_query, request, reply) => {
    const user = await loadUser(db, request.access.userId);
    return user ? { statusCode: StatusCode.SUCCESS, user } : reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
  });

  /**
   * The current code first, exactly as /refresh-tokens checks it (server/unlockCodes.ts): a wrong one
   * counts against the same limit, the last one ends every session, and a lockout refuses with 104.
   * The same change sent again after it was made (its answer lost on the way: the app keeps what was
   * typed and sends it again) is answered as done: its current code is no longer the code, and
   * counting it wrong would spend the cardholder's tries, up to a lockout, for a change that worked.
   */
  serve(routes.setUnlockCode, async ({ currentUnlockCode, unlockCode }, request, reply) => {
    const { userId } = request.access;
    const change = keyedHash(config.ssnHashKey, 'unlock-code-change', `${userId}:${currentUnlockCode}:${unlockCode}`);
    // Nothing stored, counted or told again.
    if (await isLastUnlockCodeChange(db, userId, change)) return { statusCode: StatusCode.SUCCESS };
    const check = await checkUnlockCodeOf(db, sessions, request.access, currentUnlockCode);
    if (check.kind !== 'right') return refuseUnlockCode(reply, check);
    const owner = await storeUnlockCode(db, userId, await hashSecret(unlockCode), change);
    // Not stored: the lockout was reached meanwhile (parallel wrong codes); refused as a lockout is.
    if (!owner) return refuseUnlockCode(reply, { kind: 'lockedOut' });
    await noticeOwner(services.partners, owner, 'unlockCode', request);
    return { statusCode: StatusCode.SUCCESS };
  });
}
