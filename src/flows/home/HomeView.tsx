import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { Card, HomeAnswer, Transaction } from '../../../contract/api.ts';
import { homeMachine } from '../../../machines/home.ts';
import { useServices } from '../../app/services.tsx';
import { maskAccountNumber } from '../../format/account.ts';
import { formatDate } from '../../format/date.ts';
import { formatDollars } from '../../format/money.ts';
import type { Locale } from '../../format/locale.ts';

/** Home: balance, cards and recent activity from GET /home. */
export function HomeView() {
  const { api, session } = useServices();
  const locale = useSelector(session, (s) => s.context.locale);
  const home = useActorRef(homeMachine.provide({ actors: { getHome: fromPromise(() => api.getHome()) } }));
  const state = useSelector(home, (s) => s);
  const data = state.context.home;

  return (
    <section className="screen" aria-labelledby="home-title" aria-busy={state.matches('loading')}>
      <h1 id="home-title" className="visually-hidden">
        <Trans>Your account</Trans>
      </h1>
      {state.matches('failed') ? (
        <div className="notice" role="alert">
          <p>
            <Trans>We couldn't load your account. Check your connection and try again.</Trans>
          </p>
          <button type="button" className="button" onClick={() => home.send({ type: 'user.retry' })}>
            <Trans>Try again</Trans>
          </button>
        </div>
      ) : data ? (
        <AccountSummary home={data} locale={locale} refreshing={state.matches('loading')} onRefresh={() => home.send({ type: 'user.refresh' })} />
      ) : (
        <HomeSkeleton />
      )}
    </section>
  );
}

function HomeSkeleton() {
  const { t } = useLingui();
  return (
    <div className="skeleton" role="status" aria-label={t`Loading your account`}>
      <div className="skeleton-block skeleton-balance" />
      <div className="skeleton-block" />
      <div className="skeleton-block" />
    </div>
  );
}

type SummaryProps = { home: HomeAnswer; locale: Locale; refreshing: boolean; onRefresh: () => void };

function AccountSummary({ home, locale, refreshing, onRefresh }: SummaryProps) {
  const { accountOverview: overview } = home;
  const accountNumber = maskAccountNumber(overview.prn);
  const rewardOwed = formatDollars(overview.ebtRewardOwed, locale);
  return (
    <>
      <div className="balance-card">
        <h2 className="balance-label">
          <Trans>Available balance</Trans>
        </h2>
        <p className="balance-amount" data-testid="balance">
          {formatDollars(overview.balance, locale)}
        </p>
        <p className="balance-account">
          <Trans>Account {accountNumber}</Trans>
        </p>
        <button type="button" className="link-button" onClick={onRefresh} disabled={refreshing}>
          {refreshing ? <Trans>Refreshing…</Trans> : <Trans>Refresh</Trans>}
        </button>
      </div>
      {overview.ebtRewardOwed > 0 ? (
        <p className="notice">
          <Trans>You have {rewardOwed} in EBT rewards to claim.</Trans>
        </p>
      ) : null}
      <h2>
        <Trans>Your cards</Trans>
      </h2>
      <ul className="card-list">
        {overview.cards.map((card) => (
          <CardRow key={card.id} card={card} />
        ))}
      </ul>
      <h2>
        <Trans>Recent activity</Trans>
      </h2>
      {overview.transactions.length === 0 ? (
        <p>
          <Trans>No activity yet. Money you add and spend will show here.</Trans>
        </p>
      ) : (
        <ul className="activity-list">
          {overview.transactions.map((transaction) => (
            <ActivityRow key={transaction.id} transaction={transaction} locale={locale} />
          ))}
        </ul>
      )}
    </>
  );
}

function CardRow({ card }: { card: Card }) {
  const lastFour = card.lastFour;
  return (
    <li className="card-row">
      <span>{card.type === 'VIRTUAL' ? <Trans>Virtual card ••{lastFour}</Trans> : <Trans>Physical card ••{lastFour}</Trans>}</span>
      <span className="card-status">
        <CardStatusText card={card} />
      </span>
    </li>
  );
}

function CardStatusText({ card }: { card: Card }) {
  if (card.status === 'LOST') return <Trans>Reported lost</Trans>;
  if (card.status === 'STOLEN') return <Trans>Reported stolen</Trans>;
  if (card.isPending || card.status === 'SHIPPED') return <Trans>On its way</Trans>;
  if (card.frozen) return <Trans>Locked</Trans>;
  return <Trans>Active</Trans>;
}

function ActivityRow({ transaction, locale }: { transaction: Transaction; locale: Locale }) {
  const credit = transaction.amount > 0;
  return (
    <li className="activity-row">
      <span className="activity-what">
        <span className="activity-description">{transaction.description}</span>
        <span className="activity-when">
          {formatDate(transaction.timestamp, locale)}
          {transaction.location ? ` · ${transaction.location}` : ''}
        </span>
      </span>
      <span className={credit ? 'amount amount-credit' : 'amount'}>
        {credit ? '+' : ''}
        {formatDollars(transaction.amount, locale)}
      </span>
    </li>
  );
}
