/** One transaction in a list (home's recent activity, the activity screen): what, when, where, how much; it opens its detail. */
import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { Transaction } from '../../../contract/activity/types.ts';
import { formatDate, formatTime } from '../format/date.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { Amount } from '../components/Amount.tsx';
import { TransactionTitle } from './TransactionText.tsx';
import './activityRows.css';

/** Each row's link (the activity screen finds the first older row by it). */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS class, never shown
export const activityLinkClassName = 'activity-link';

/**
 * This page load, in the history entry of a detail opened from the activity list: after a reload the
 * list's entry belongs to the page before, and going back to it would load the whole app again.
 */
export const thisPageLoad = Math.random().toString(36).slice(2);

/**
 * `when`: the time, under a day's heading (the activity screen), or the date (home's short list).
 * `returnsHere`: the detail's "Back to activity" comes back to this list as the browser's Back does,
 * where it was (the activity screen), not to a new one at its top.
 */
export function ActivityRow({ transaction, locale, when, returnsHere = false }: { transaction: Transaction; locale: Locale; when: 'date' | 'time'; returnsHere?: boolean }) {
  const credit = transaction.amount > 0;
  const pending = transaction.status === 'pending';
  return (
    <li className={pending ? 'activity-pending' : undefined}>
      <Link className={`row ${activityLinkClassName}`} to="/transactions/detail" search={{ id: transaction.id }} state={returnsHere ? { fromActivityList: thisPageLoad } : undefined}>
        <span className="activity-what">
          <span className="activity-description">
            <TransactionTitle transaction={transaction} />
          </span>
          <span className="activity-when">
            {pending ? (
              <span className="badge">
                <Trans>Pending</Trans>
              </span>
            ) : null}
            {when === 'date' ? formatDate(transaction.timestamp, locale) : formatTime(transaction.timestamp, locale)}
            {transaction.location ? ` · ${transaction.location}` : ''}
          </span>
        </span>
        <Amount className={credit ? 'amount amount-credit' : 'amount'} cents={transaction.amount} signed />
      </Link>
    </li>
  );
}
