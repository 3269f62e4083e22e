import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { startTransition, useDeferredValue, useEffect, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import type { Transaction } from '../../../contract/activity/types.ts';
import type { Card } from '../../../contract/cards/types.ts';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { homeMachine } from '../../../machines/home/home.ts';
import { useServices } from '../../app/services.tsx';
import { ActivityRow } from '../../shared/activity/ActivityRow.tsx';
import { TransactionTitle } from '../../shared/activity/TransactionText.tsx';
import { Amount } from '../../shared/components/Amount.tsx';
import { activationSearch, isReadyToActivate } from '../../shared/cards/cardLife.ts';
import { CardStatusText } from '../../shared/cards/CardStatusText.tsx';
import { maskAccountNumber } from '../../shared/format/account.ts';
import { formatDollars } from '../../shared/format/money.ts';
import type { Locale } from '../../../contract/shared/locale.ts';
import type { Host } from '../../shared/host/host.ts';
import { AsOfNotice } from '../../shared/offline/AsOfNotice.tsx';
import { sessionLastKnown } from '../../shared/offline/lastKnown.ts';
import { earlyAnswer, hasEarlyHome, keptHome, takeEarlyHome } from './earlyHome.ts';
import { BenefitsContent, CopyAccountNumber, FreeTaxFilingHelp, NotificationsPrompt } from './HomeExtras.tsx';
import './home.css';
import { Skeleton } from '../../shared/components/Skeleton.tsx';
import { RetryNotice } from '../../shared/components/RetryNotice.tsx';

/** /home2 (spec §2, experiment showNewDebitDetails): home with the new debit card details. */
export function Home2View() {
  return <HomeView newDebitDetails />;
}

/** Home: balance, cards and recent activity from GET /home. */
export function HomeView({ newDebitDetails = false }: { newDebitDetails?: boolean }) {
  const { t } = useLingui();
  const services = useServices();
  const { api, session, host, offlineStorage } = services;
  const locale = useSelector(session, (s) => s.context.locale);
  const [{ lastKnown, owner }] = useState(() => sessionLastKnown(offlineStorage, session));
  const [kept] = useState(() => keptHome(services));
  // Read before the chart takes the early call (its actor starts after this render).
  const [firstScreen] = useState(() => hasEarlyHome(api));
  const [answered] = useState(() => earlyAnswer(api));
  const home = useActorRef(
    homeMachine.provide({
      actors: {
        getHome: fromPromise(({ input }) => takeEarlyHome(api) ?? api.getHome({ suppressErrorModal: input.quiet })),
      },
      actions: {
        keepLastKnown: (_, answer) => lastKnown.home.keep(owner, answer),
        sendSitevars: (_, answer) => sendSitevars(host, answer, session.getSnapshot().context.refreshToken !== null),
      },
      delays: { slowAnswer: services.slowAnswerMs },
    }),
    { input: { lastKnown: kept, answered } },
  );
  // The account arriving re-renders most of the screen: deferred, React does it in slices between which
  // the phone stays responsive, instead of in one task.
  const state = useDeferredValue(useSelector(home, (s) => s));
  const data = state.context.home;
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section className="screen" aria-labelledby="home-title" aria-busy={state.hasTag('busy')}>
      <h1 id="home-title" className="visually-hidden" ref={heading} tabIndex={-1}>
        <Trans>Your account</Trans>
      </h1>
      {state.context.asOf ? (
        <AsOfNotice asOf={state.context.asOf} locale={locale} focusOnRetry={heading} onRetry={() => home.send({ type: 'user.retry' })} />
      ) : null}
      {state.hasTag('failed') ? (
        <RetryNotice advise focusOnRetry={heading} onRetry={() => home.send({ type: 'user.retry' })}>
          <Trans>We couldn't load your account.</Trans>
        </RetryNotice>
      ) : data ? (
        <AccountSummary
          home={data}
          locale={locale}
          newDebitDetails={newDebitDetails}
          deferActivity={firstScreen}
          refreshing={state.hasTag('busy')}
          onRefresh={() => home.send({ type: 'user.refresh' })}
        />
      ) : (
        <Skeleton label={t`Loading your account`} balance />
      )}
      {/* Not under the skeleton: the account arriving would push it down (layout shift). */}
      {data || state.hasTag('failed') ? (
        <p className="screen-links">
          <Link to="/manage-account">
            <Trans>Manage account</Trans>
          </Link>
        </p>
      ) : null}
    </section>
  );
}

type SummaryProps = {
  home: HomeAnswer;
  locale: Locale;
  newDebitDetails: boolean;
  /** Renders the recent activity after the rest of the account (see RecentActivity). */
  deferActivity: boolean;
  refreshing: boolean;
  onRefresh: () => void;
};

function AccountSummary({ home, locale, newDebitDetails, deferActivity, refreshing, onRefresh }: SummaryProps) {
  const { accountOverview: overview } = home;
  const accountNumber = maskAccountNumber(overview.prn);
  const rewardOwed = formatDollars(overview.ebtRewardOwed);
  return (
    <div className="account-summary">
      <div className="balance-card">
        <h2 className="balance-label">
          <Trans>Available balance</Trans>
        </h2>
        <p className="balance-amount" data-testid="balance">
          <Amount cents={overview.balance} />
        </p>
        <p className="balance-account">
          <Trans>Account ending in {accountNumber}</Trans>
        </p>
        <div className="balance-actions">
          <button type="button" className="link-button" onClick={() => !refreshing && onRefresh()} aria-disabled={refreshing}>
            {refreshing ? <Trans>Refreshing…</Trans> : <Trans>Refresh</Trans>}
          </button>
          <CopyAccountNumber prn={overview.prn} />
        </div>
      </div>
      <Holds overview={overview} />
      <MoneyAndCardLinks />
      <NotificationsPrompt />
      {overview.ebtRewardOwed > 0 ? (
        // Claiming is the benefits feature's call (spec /ebt-spend-rewards/claim), not built yet: the
        // amount is told without inviting an action the app does not offer.
        <p className="notice">
          <Trans>You have earned {rewardOwed} in EBT rewards. You can't claim them in the app yet.</Trans>
        </p>
      ) : null}
      {/* The new debit details say each card in their place: listed once, not twice. */}
      {newDebitDetails ? (
        <DebitDetails cards={overview.cards} />
      ) : (
        <>
          <h2>
            <Trans>Your cards</Trans>
          </h2>
          <ul className="row-list">
            {overview.cards.map((card) => (
              <CardRow key={card.id} card={card} />
            ))}
          </ul>
        </>
      )}
      <PhysicalCardLink home={home} />
      <BenefitsContent />
      <h2>
        <Trans>Recent activity</Trans>
      </h2>
      {overview.transactions.length === 0 ? (
        <p>
          <Trans>No activity yet. Money you add and spend will show here.</Trans>
        </p>
      ) : (
        <>
          <RecentActivity transactions={overview.transactions} locale={locale} deferred={deferActivity} />
          <p className="screen-links">
            <Link to="/transactions">
              <Trans>See all activity</Trans>
            </Link>
          </p>
        </>
      )}
      <FreeTaxFilingHelp />
    </div>
  );
}

/** The new debit details (experiment showNewDebitDetails): what each card can do right now. */
function DebitDetails({ cards }: { cards: Card[] }) {
  return (
    <section aria-labelledby="debit-details-title">
      <h2 id="debit-details-title">
        <Trans>Debit card details</Trans>
      </h2>
      <dl className="debit-details">
        {cards.map((card) => (
          <div key={card.id} className="debit-detail">
            <dt>
              <CardName card={card} />
            </dt>
            <dd>
              {card.isActive && !card.frozen ? (
                <Trans>Ready to use.</Trans>
              ) : card.isPending ? (
                <Trans>Activate it when it arrives to start using it.</Trans>
              ) : (
                <Trans>Can't be used right now.</Trans>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Tells the companion app what its CMS content may depend on (spec §3 sitevars). */
function sendSitevars(host: Host, home: HomeAnswer, hasRefreshToken: boolean): void {
  const cards = home.accountOverview.cards;
  host.sendSitevars({
    hasRefreshToken,
    hostname: location.hostname,
    inEmbedded: host.embedded,
    registrationWave: home.registrationWave,
    hasActivated: cards.some((card) => card.type === 'PHYSICAL' && card.isActive),
    hasFundedAnyKind: home.hasFundedAnyKind,
    hasPhysicalCard: cards.some((card) => card.type === 'PHYSICAL'),
  });
}

function CardName({ card }: { card: Card }) {
  const lastFour = card.lastFour;
  // A card on its way has no number to show yet: the cardholder types its last 4 to activate it.
  if (lastFour === null) return <Trans>Physical card</Trans>;
  return card.type === 'VIRTUAL' ? <Trans>Virtual card ending in {lastFour}</Trans> : <Trans>Physical card ending in {lastFour}</Trans>;
}

/**
 * The physical card's next step: activate the one on its way once it has shipped (its row says it is
 * on its way until then), or order one when none works or is coming.
 */
function PhysicalCardLink({ home }: { home: HomeAnswer }) {
  const pending = home.pendingCard;
  if (pending) {
    if (!isReadyToActivate(pending)) return null;
    return (
      <p className="screen-links">
        <Link to="/activate/{-$step}" params={{ step: undefined }} search={activationSearch(pending)} className="button">
          <Trans>Activate your card</Trans>
        </Link>
      </p>
    );
  }
  const hasPhysicalCard = home.accountOverview.cards.some((card) => card.type === 'PHYSICAL' && card.isActive);
  if (hasPhysicalCard) return null;
  return (
    <p className="screen-links">
      <Link to="/order-card/{-$step}" params={{ step: undefined }}>
        <Trans>Order a physical card</Trans>
      </Link>
    </p>
  );
}

function CardRow({ card }: { card: Card }) {
  return (
    <li className="row">
      <span>
        <CardName card={card} />
      </span>
      <span className="card-status">
        <CardStatusText card={card} />
      </span>
    </li>
  );
}

/** Every money and card screen, one tap from home (each says honestly when it is not available yet). */
function MoneyAndCardLinks() {
  const { t } = useLingui();
  return (
    <nav className="quick-links" aria-label={t`Money and cards`}>
      <Link to="/add-money">
        <Trans>Add money</Trans>
      </Link>
      <Link to="/transfer-money">
        <Trans>Transfer money</Trans>
      </Link>
      <Link to="/direct-deposit">
        <Trans>Direct deposit</Trans>
      </Link>
      <Link to="/manage-cards">
        <Trans>Manage cards</Trans>
      </Link>
      <Link to="/statements">
        <Trans>Statements</Trans>
      </Link>
    </nav>
  );
}

/**
 * The recent activity's rows. They are most of the account's first render: on a cold load here their
 * layout doubled that of the rest (the task that lays the account out took 16–19 ms with them, 8 ms
 * without). On the app's first screen they are added once the rest has been painted, so each layout is
 * a task of its own. Coming back to home (from a transaction's detail) they render with the rest, so
 * the router can put the scroll back where it was.
 */
function RecentActivity({ transactions, locale, deferred }: { transactions: Transaction[]; locale: Locale; deferred: boolean }) {
  const [shown, setShown] = useState(!deferred);
  useEffect(() => {
    if (shown) return;
    // A frame's callback runs before that frame's paint; a task set from it runs after.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setShown(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown]);
  return shown ? (
    <ul className="row-list">
      {transactions.map((transaction) => <ActivityRow key={transaction.id} transaction={transaction} locale={locale} when="date" />)}
    </ul>
  ) : null;
}

/**
 * What holds take out of the balance, said plainly: each recent hold with its merchant ("$12.40 on hold
 * from a purchase at Save Mart"), or the total when older holds are not among the recent activity.
 */
function Holds({ overview }: { overview: HomeAnswer['accountOverview'] }) {
  if (overview.onHold <= 0) return null;
  const holds = overview.transactions.filter((transaction) => transaction.status === 'pending' && transaction.amount < 0);
  const listed = holds.reduce((sum, hold) => sum - hold.amount, 0);
  const total = formatDollars(overview.onHold);
  return (
    <div className="notice holds">
      {listed === overview.onHold ? (
        <ul className="holds-list">
          {holds.map((hold) => (
            <HoldLine key={hold.id} hold={hold} />
          ))}
        </ul>
      ) : (
        <p>
          <Trans>{total} is on hold for purchases that haven't settled yet.</Trans>
        </p>
      )}
      <p>
        <Trans>Held money is already taken out of your available balance.</Trans>
      </p>
    </div>
  );
}

function HoldLine({ hold }: { hold: Transaction }) {
  const amount = formatDollars(-hold.amount);
  const merchant = hold.counterparty;
  return (
    <li>
      {merchant ? (
        <Trans>
          {amount} on hold from a purchase at {merchant}
        </Trans>
      ) : (
        <Trans>
          {amount} on hold: <TransactionTitle transaction={hold} />
        </Trans>
      )}
    </li>
  );
}
