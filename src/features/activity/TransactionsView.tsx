/**
 * Activity (spec §2 /transactions): the available balance and what is on hold, then every transaction,
 * newest first, grouped by day, holds marked pending and credits positive; a page at a time; then the
 * fees charged last month and this year (Regulation E §1005.18(c)(5): on any account history).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { FeeTotals, Transaction } from '../../../contract/activity/types.ts';
import { loadingStatusOf } from '../../../machines/activity/activity.ts';
import { useServices } from '../../app/services.tsx';
import { ActivityRow, activityLinkClassName } from '../../shared/activity/ActivityRow.tsx';
import { formatDate, formatMonth, formatTime } from '../../shared/format/date.ts';
import { onEasternTime } from '../../shared/format/easternTime.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import { formatDollars } from '../../shared/format/money.ts';
import { AsOfNotice } from '../../shared/offline/AsOfNotice.tsx';
import { useActivityScreens } from './activityScreens.ts';
import './activity.css';
import { Skeleton } from '../../shared/components/Skeleton.tsx';
import { RetryNotice } from '../../shared/components/RetryNotice.tsx';
import { takeFocusIfNowhere } from '../../shared/components/focusIsNowhere.ts';

export function TransactionsView() {
  const { t } = useLingui();
  const { session } = useServices();
  const { activity, listPlace } = useActivityScreens();
  const locale = useSelector(session, (s) => s.context.locale);
  const transactions = useSelector(activity, (s) => s.context.transactions);
  const status = useSelector(activity, loadingStatusOf);
  const failed = useSelector(activity, (s) => s.hasTag('failed'));
  const firstPage = useSelector(activity, (s) => s.hasTag('firstPage'));
  const asOf = useSelector(activity, (s) => s.context.asOf);
  const fees = useSelector(activity, (s) => s.context.fees);
  const empty = transactions.length === 0;
  const loadingFirstRows = empty && status === 'LOADING';
  const loadingOlder = status === 'LOADING' && !firstPage;
  // "Show older activity" goes once the older rows have come (or none are left), which would leave the
  // keyboard's focus nowhere: it goes to the first older row instead, where reading goes on (also when
  // they come after a failure and Try again).
  const screenRef = useRef<HTMLElement>(null);
  const olderFrom = useRef<number | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (status === 'LOADING' || failed || olderFrom.current === null) return;
    const first = olderFrom.current;
    olderFrom.current = null;
    (screenRef.current?.getElementsByClassName(activityLinkClassName)[first] as HTMLElement | undefined)?.focus();
  }, [status, failed, transactions]);
  // Opened again from a transaction's detail, the list is where it was (spec §2: the scroll position is
  // not reset). The browser's Back has the router restore it; the detail's link, which inside the
  // companion app opens the list as a new step (TransactionDetailView.tsx BackToActivity), has it here.
  useLayoutEffect(() => {
    if (listPlace.y !== null) window.scrollTo(0, listPlace.y);
  }, [listPlace]);
  // And the keyboard's focus on the row opened, where it was: not on the screen's heading, from which
  // the next Tab would go back to the top (a layout effect: before the app gives the heading the focus).
  useLayoutEffect(
    () =>
      takeFocusIfNowhere(() =>
        ([...(screenRef.current?.getElementsByClassName(activityLinkClassName) ?? [])] as HTMLAnchorElement[]).find((link) => link.href === listPlace.row),
      ),
    [listPlace],
  );

  return (
    <section
      ref={screenRef}
      className="screen"
      aria-labelledby="activity-title"
      aria-busy={status === 'LOADING'}
      // A row opened by click, tap or keyboard: the list's place, before the detail replaces it.
      onClickCapture={(event) => {
        listPlace.y = window.scrollY;
        listPlace.row = (event.target as Element).closest('a')?.href ?? null;
      }}
    >
      <h1 id="activity-title" ref={heading} tabIndex={-1}>
        <Trans>Activity</Trans>
      </h1>
      <BalanceHeader
        locale={locale}
        rowsAsOf={asOf}
        onRefresh={() => {
          olderFrom.current = null;
          activity.send({ type: 'user.refresh' });
        }}
        refreshing={status === 'LOADING'}
      />
      {asOf ? <AsOfNotice asOf={asOf} locale={locale} focusOnRetry={heading} onRetry={() => activity.send({ type: 'user.retry' })} /> : null}
      {failed ? (
        <RetryNotice advise focusOnRetry={heading} onRetry={() => activity.send({ type: 'user.retry' })}>
          {firstPage ? (
            <Trans>We couldn't load your activity.</Trans>
          ) : (
            <Trans>We couldn't load more activity.</Trans>
          )}
        </RetryNotice>
      ) : null}
      {loadingFirstRows ? <Skeleton label={t`Loading your activity`} /> : null}
      {empty && status === 'NO_MORE' ? (
        <p>
          <Trans>No activity yet. Money you add and spend will show here.</Trans>
        </p>
      ) : null}
      {byDay(transactions, locale).map(({ day, rows }) => (
        <section key={day} aria-label={day} className="activity-day">
          <h2 className="activity-day-title">{day}</h2>
          <ul className="row-list">
            {rows.map((transaction) => (
              <ActivityRow key={transaction.id} transaction={transaction} locale={locale} when="time" returnsHere />
            ))}
          </ul>
        </section>
      ))}
      {/* While the first rows load it keeps no room (its live region stays, empty): the rows would push it down. */}
      <div className={loadingFirstRows ? undefined : 'activity-end'}>
        {/* After a failed older page its retry notice is the way on (this button would do nothing then). */}
        {/* While the older rows load it stays, unavailable, so the keyboard's focus stays on it. */}
        {asOf || failed || empty || !(status === 'COMPLETE' || loadingOlder) ? null : (
          <button
            type="button"
            className="button button-secondary"
            aria-disabled={loadingOlder}
            onClick={() => {
              if (loadingOlder) return;
              olderFrom.current = transactions.length;
              activity.send({ type: 'user.loadMore' });
            }}
          >
            <Trans>Show older activity</Trans>
          </button>
        )}
        {/* Only what the list's end says is announced, not the button (always there, so a change is heard). */}
        <p role="status">
          {asOf || failed || empty ? null : loadingOlder ? (
            <Trans>Loading older activity…</Trans>
          ) : status === 'NO_MORE' ? (
            <Trans>That's all of your activity.</Trans>
          ) : null}
        </p>
      </div>
      {fees && !loadingFirstRows ? <FeeTotalsNote fees={fees} locale={locale} /> : null}
      {/* Not while the first rows load: they would push the links down as they come (a layout shift). */}
      {loadingFirstRows ? null : (
        <p className="screen-links">
          <Link to="/statements">
            <Trans>Monthly statements</Trans>
          </Link>
          <Link to="/home">
            <Trans>Back to home</Trans>
          </Link>
        </p>
      )}
    </section>
  );
}

type BalanceHeaderProps = { locale: Locale; rowsAsOf: string | null; onRefresh: () => void; refreshing: boolean };

/**
 * The balance as home knows it, and what holds take out of it; it stays on screen while refreshing.
 * A balance from the last-known copy says when it is from, unless the rows' notice already says that
 * time; one that could not be loaded says so (Refresh asks for it again).
 */
function BalanceHeader({ locale, rowsAsOf, onRefresh, refreshing }: BalanceHeaderProps) {
  const { home } = useActivityScreens();
  const overview = useSelector(home, (s) => s.context.home?.accountOverview);
  const asOf = useSelector(home, (s) => s.context.asOf);
  const failed = useSelector(home, (s) => s.hasTag('failed'));
  const balance = overview ? formatDollars(overview.balance) : null;
  const onHold = overview && overview.onHold > 0 ? formatDollars(overview.onHold) : null;
  const day = asOf && formatDate(asOf, locale, 'sentence');
  const time = asOf && formatTime(asOf, locale);
  // As the reader sees them: the two copies are kept a moment apart, each as its answer came.
  const rowsSay = rowsAsOf && `${formatDate(rowsAsOf, locale, 'sentence')} ${formatTime(rowsAsOf, locale)}`;
  return (
    <div className="activity-balance">
      <p className="activity-balance-amount">
        {balance ? (
          <Trans>Available balance: {balance}</Trans>
        ) : failed ? (
          <Trans>We couldn't load your balance.</Trans>
        ) : (
          <Trans>Available balance: loading…</Trans>
        )}
      </p>
      {balance && asOf && `${day} ${time}` !== rowsSay ? (
        <p>
          <Trans>This balance is from {day} at {time}; it may have changed since.</Trans>
        </p>
      ) : null}
      {onHold ? (
        <p className="activity-balance-held">
          <Trans>{onHold} is on hold for purchases that haven't settled yet.</Trans>
        </p>
      ) : null}
      <button type="button" className="link-button" onClick={() => !refreshing && onRefresh()} aria-disabled={refreshing}>
        {refreshing ? <Trans>Refreshing…</Trans> : <Trans>Refresh</Trans>}
      </button>
    </div>
  );
}

/**
 * The fees charged in the last calendar month and this year so far, by US Eastern months as statements
 * count them; on a phone in another time zone it says so, as a fee near midnight at a month's end is
 * listed under one day here and counted in the next month there.
 */
function FeeTotalsNote({ fees, locale }: { fees: FeeTotals; locale: Locale }) {
  const month = formatMonth(fees.lastMonth, locale, 'sentence');
  const lastMonth = formatDollars(fees.lastMonthCents);
  const { year } = fees;
  const thisYear = formatDollars(fees.yearCents);
  return (
    <p className="activity-fees">
      <Trans>Fees we charged you in {month}: {lastMonth}</Trans>
      <br />
      <Trans>Fees we charged you in {year} so far: {thisYear}</Trans>
      {onEasternTime() ? null : (
        <>
          <br />
          <Trans>Months are counted in US Eastern Time (New York), as on your statements.</Trans>
        </>
      )}
    </p>
  );
}

/** Consecutive transactions of the same day (in the reader's time zone), under that day's date. */
function byDay(transactions: Transaction[], locale: Locale): { day: string; rows: Transaction[] }[] {
  const days: { day: string; rows: Transaction[] }[] = [];
  for (const transaction of transactions) {
    const day = formatDate(transaction.timestamp, locale);
    const last = days.at(-1);
    if (last?.day === day) last.rows.push(transaction);
    else days.push({ day, rows: [transaction] });
  }
  return days;
}
