/**
 * A transaction's detail (spec §2 /transactions/detail, §3): what it was, how much, the date and time,
 * where or with whom, its status, and for a hold why the money is held and until when.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useLocation, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef } from 'react';
import { fromPromise } from 'xstate';
import type { TransactionDetail } from '../../../contract/activity/types.ts';
import { feeOf } from '../../../contract/shared/fees.ts';
import { transactionDetailMachine } from '../../../machines/activity/transactionDetail.ts';
import { knownRow } from '../../../machines/activity/activity.ts';
import { useServices } from '../../app/services.tsx';
import { thisPageLoad } from '../../shared/activity/ActivityRow.tsx';
import { TransactionStatusText, TransactionTitle } from '../../shared/activity/TransactionText.tsx';
import { Amount } from '../../shared/components/Amount.tsx';
import { Skeleton } from '../../shared/components/Skeleton.tsx';
import { formatDate, formatTime } from '../../shared/format/date.ts';
import { formatDollars } from '../../shared/format/money.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { useActivityScreens } from './activityScreens.ts';
import './activity.css';
import '../../shared/components/detailList.css';
import { RetryNotice } from '../../shared/components/RetryNotice.tsx';

const detailRoute = getRouteApi('/_accessToken/transactions/detail');

export function TransactionDetailView() {
  const { id = '' } = detailRoute.useSearch();
  // A new id is a new detail: the chart starts again for it.
  return <TransactionDetail key={id} id={id} />;
}

function TransactionDetail({ id }: { id: string }) {
  const { t } = useLingui();
  const { session } = useServices();
  const { activity, calls } = useActivityScreens();
  const locale = useSelector(session, (s) => s.context.locale);
  const detail = useActorRef(
    transactionDetailMachine.provide({
      actors: { getTransaction: fromPromise(({ input }) => calls.getTransaction(input.id, { suppressErrorModal: input.quiet })) },
      actions: { shareTransaction: (_, transaction) => activity.send({ type: 'transaction.seen', id, transaction }) },
    }),
    { input: { id, known: knownRow(activity.getSnapshot().context, id) } },
  );
  const state = useSelector(detail, (s) => s);
  const transaction = state.context.transaction;
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section className="screen" aria-labelledby="detail-title" aria-busy={state.hasTag('busy')}>
      <h1 id="detail-title" ref={heading} tabIndex={-1}>{transaction ? <TransactionTitle transaction={transaction} /> : <Trans>Transaction details</Trans>}</h1>
      {transaction ? (
        <>
          <Details transaction={transaction} locale={locale} />
          {state.hasTag('unchecked') ? (
            // An alert: a status inserted with its words already in it is not read by every screen reader.
            <RetryNotice advise focusOnRetry={heading} onRetry={() => detail.send({ type: 'user.retry' })}>
              <Trans>We couldn't check this transaction for changes: this is how your activity showed it.</Trans>
            </RetryNotice>
          ) : null}
        </>
      ) : state.hasTag('notFound') ? (
        <div className="notice" role="alert">
          <p>
            <Trans>We couldn't find this transaction on your account.</Trans>
          </p>
          {/* A hold released or expired leaves activity (server/features/activity/queries.ts): its old link lands here. */}
          <p>
            <Trans>A hold that was released, or that ended without the purchase being completed, is no longer listed: no money was taken for it.</Trans>
          </p>
        </div>
      ) : state.hasTag('failed') ? (
        <RetryNotice advise focusOnRetry={heading} onRetry={() => detail.send({ type: 'user.retry' })}>
          <Trans>We couldn't load this transaction.</Trans>
        </RetryNotice>
      ) : (
        <Skeleton label={t`Loading this transaction`} blocks={1} />
      )}
      <p className="screen-links">
        <BackToActivity />
      </p>
    </section>
  );
}

function Details({ transaction, locale }: { transaction: TransactionDetail; locale: Locale }) {
  const heldUntil = transaction.heldUntil ? formatDate(transaction.heldUntil, locale, 'sentence') : null;
  const credit = transaction.amount > 0;
  const { settledAt, heldAmount = 0 } = transaction;
  // Completed for less than was held (the rest went back to the balance) or, a purchase, for more: a tip.
  const change = settledAt ? Math.abs(transaction.amount) - heldAmount : 0;
  const [held, leftOver, extra] = [formatDollars(heldAmount), formatDollars(-change), formatDollars(change)];
  return (
    <>
      {/* Opened from the list, the list's copy shows while the card API is asked: where a hold settled
          since, the amount and the status change, and a screen reader says each whole. */}
      <p className={credit ? 'detail-amount amount-credit' : 'detail-amount'} aria-live="polite" aria-atomic="true">
        <span className="visually-hidden">
          <Trans>Amount:</Trans>{' '}
        </span>
        <Amount cents={transaction.amount} signed />
      </p>
      <dl className="detail-list">
        <div aria-live="polite" aria-atomic="true">
          <dt>
            <Trans>Status</Trans>
          </dt>
          <dd>
            <TransactionStatusText transaction={transaction} />
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Date</Trans>
          </dt>
          <dd>{formatDate(transaction.timestamp, locale)}</dd>
        </div>
        <div>
          <dt>
            <Trans>Time</Trans>
          </dt>
          <dd>{formatTime(transaction.timestamp, locale)}</dd>
        </div>
        {/* A fee's counterparty is its code, which the title already says by name. */}
        {transaction.counterparty && !feeOf(transaction) ? (
          <div>
            <dt>{credit ? <Trans>From</Trans> : <Trans>Merchant</Trans>}</dt>
            <dd>{transaction.counterparty}</dd>
          </div>
        ) : null}
        {transaction.location ? (
          <div>
            <dt>
              <Trans>Location</Trans>
            </dt>
            <dd>{transaction.location}</dd>
          </div>
        ) : null}
        {/* A hold completed later: the statement of the month (US Eastern) it was completed in counts it. */}
        {settledAt ? (
          <div>
            <dt>
              <Trans>Date completed</Trans>
            </dt>
            <dd>{formatDate(settledAt, locale)}</dd>
          </div>
        ) : null}
      </dl>
      {change < 0 ? (
        <p className="notice">
          <Trans>
            {held} was held at first. The merchant completed the purchase for less, and the {leftOver} left over went back to
            your balance.
          </Trans>
        </p>
      ) : change > 0 ? (
        <p className="notice">
          <Trans>
            {held} was held at first. The merchant completed the purchase for more (with a tip, for example), and the extra{' '}
            {extra} was taken from your balance.
          </Trans>
        </p>
      ) : null}
      {transaction.status === 'pending' ? (
        <div className="notice">
          <p className="notice-title">
            <Trans>Why is this pending?</Trans>
          </p>
          <p>
            <Trans>
              The merchant asked for this amount and it is held from your balance until they complete the purchase. The
              final amount can be lower, or higher when a tip is added.
            </Trans>
          </p>
          {heldUntil ? (
            <p>
              <Trans>If the merchant doesn't complete it, the hold is released by {heldUntil}.</Trans>
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/**
 * Opened from the activity list in this page load, going back to it is the browser's Back: the list
 * comes back where it was, with its older pages (scroll restoration, as the issue asks). Opened from
 * home or a link, after a reload, or inside the companion app (whose own history shares the tab's: a
 * step back there could be the host's), it opens the list. A modified click opens it as the browser does.
 */
function BackToActivity() {
  const router = useRouter();
  const { embedded } = useServices();
  const { listPlace } = useActivityScreens();
  const fromList = useLocation({ select: (location) => location.state.fromActivityList === thisPageLoad });
  return (
    <Link
      to="/transactions"
      // Not "the current page" to a screen reader: the detail's address is under the list's.
      activeOptions={{ exact: true }}
      // The list opened as a new step goes back to its place (TransactionsView), not to the top.
      resetScroll={listPlace.y === null}
      onClick={(event) => {
        if (!fromList || embedded || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        router.history.back();
      }}
    >
      <Trans>Back to activity</Trans>
    </Link>
  );
}
