/** Activity's calls (spec §7 GET /transactions, GET /transaction), made from its route table over the app's API client. */
import { activityRoutes as activity } from '../../../contract/activity/routes.ts';
import { transactionsPageLimit } from '../../../contract/activity/limits.ts';
import { succeeded, type Api } from '../../shared/api/client.ts';

export type ActivityCalls = ReturnType<typeof activityCalls>;

export function activityCalls({ call }: Api) {
  return {
    /**
     * A page, newest first; the first page without a cursor. Anything but SUCCESS is a failure.
     * `suppressErrorModal`: the screen has a last-known copy to show and says so itself.
     */
    getTransactions: (cursor: string | null, options: { suppressErrorModal?: boolean } = {}) =>
      succeeded(call(activity.getTransactions, { ...(cursor ? { cursor } : {}), limit: String(transactionsPageLimit) }, options)),
    /** `{0, transaction}`, or 404 `{3}` when there is no such transaction of this cardholder. */
    getTransaction: (id: string, options: { suppressErrorModal?: boolean } = {}) => call(activity.getTransaction, { id }, options),
  };
}
