/**
 * /manage-cards and /manage-card (spec §2): the cardholder's cards in a swipeable list that opens on
 * `initialSlide`, each with its status and what can be done with it: lock or unlock, set the PIN or the
 * ATM PIN, report it lost or stolen, replace a damaged one, activate one that is on its way; the virtual
 * card shows its number, expiry and CVV on request, through the card processor's own page.
 * The chart (machines/cards/manageCards.ts) loads the cards and runs lock and lost-or-stolen.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { Card } from '../../../../contract/cards/types.ts';
import { cardLockStatusOf, hasLock, type CardLockStatus } from '../../../../machines/cards/cardLock.ts';
import { canReplaceDamaged, canReportLostStolen, cardLockOf, lostStolenOf, type CardLockActor } from '../../../../machines/cards/manageCards.ts';
import { useServices } from '../../../app/services.tsx';
import { ActionButton } from '../../../shared/components/ActionButton.tsx';
import { focusIsNowhere } from '../../../shared/components/focusIsNowhere.ts';
import { RetryNotice } from '../../../shared/components/RetryNotice.tsx';
import { Skeleton } from '../../../shared/components/Skeleton.tsx';
import type { Locale } from '../../../../contract/shared/locale.ts';
import { CardCarousel } from './CardCarousel.tsx';
import { activationSearch, isReadyToActivate } from '../../../shared/cards/cardLife.ts';
import { CardStatusText } from '../../../shared/cards/CardStatusText.tsx';
import { CardName, CardNumber, cardStatusDetail } from './CardText.tsx';
import { LostStolenView } from './LostStolenView.tsx';
import { manageCardsChart, pinLinkSearch } from './manageCardsEffects.ts';
import './manageCards.css';
import '../processorFrame.css';

const manageCardsRoute = getRouteApi('/_accessToken/manage-cards');

/** /manage-cards: opens on the card the query names. */
export function ManageCardsScreen() {
  const { initialSlide } = manageCardsRoute.useSearch();
  return <ManageCardsView initialSlide={initialSlide ?? 0} />;
}

/** /manage-card (the virtual-cards experiment off): the same screen, on the first card. */
export function ManageCardScreen() {
  return <ManageCardsView initialSlide={0} />;
}

/** The id of a card's "Report lost or stolen" button. */
function reportButtonId(cardId: string): string {
  const buttonId = `report-${cardId}`;
  return buttonId;
}

function ManageCardsView({ initialSlide }: { initialSlide: number }) {
  const { t } = useLingui();
  const { api, session, errors } = useServices();
  const chart = useActorRef(useState(() => manageCardsChart(api, errors, () => session.getSnapshot().context.locale))[0]);
  const state = useSelector(chart, (s) => s);
  const locale = useSelector(session, (s) => s.context.locale);
  const lock = cardLockOf(state);
  const report = lostStolenOf(state);
  const hasVirtualCard = state.context.virtualCardId !== null;

  const reporting = state.hasTag('reporting') && report !== undefined;
  // Back from a report the keyboard's focus returns to the card's "Report lost or stolen" (cancelled),
  // or to the screen's heading once the card can no longer be reported; else it would be nowhere.
  const reportedCard = useRef<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (reporting || reportedCard.current === null) return;
    const cardId = reportedCard.current;
    reportedCard.current = null;
    (document.getElementById(reportButtonId(cardId)) ?? heading.current)?.focus();
  }, [reporting]);

  return (
    <>
      {reporting ? <LostStolenView report={report} locale={locale} hasVirtualCard={hasVirtualCard} /> : null}
      {/* Hidden, not gone, while a report is made: back from it, the list is on the same card. */}
      <section className="screen" aria-labelledby="manage-cards-title" aria-busy={state.hasTag('busy')} hidden={reporting}>
        <h1 id="manage-cards-title" ref={heading} tabIndex={-1}>
          <Trans>Manage cards</Trans>
        </h1>
        {state.hasTag('failed') ? (
          <RetryNotice advise focusOnRetry={heading} onRetry={() => chart.send({ type: 'user.retry' })}>
            <Trans>We couldn't load your cards.</Trans>
          </RetryNotice>
        ) : null}
        {state.hasTag('busy') ? <Skeleton label={t`Loading your cards`} blocks={2} balance /> : null}
        {state.hasTag('cards') && lock ? (
          <CardList
            lock={lock}
            initialSlide={initialSlide}
            render={(card, index) => (
              <CardSlide
                card={card}
                index={index}
                lock={lock}
                locale={locale}
                cardImageURL={card.id === state.context.virtualCardId ? state.context.cardImageURL : null}
                details={
                  card.id === state.context.virtualCardId ? (
                    <VirtualCardDetails
                      shown={state.hasTag('details') ? state.context.cardDetailsURL : null}
                      loading={state.hasTag('detailsLoading')}
                      failed={state.hasTag('detailsFailed')}
                      onShow={() => chart.send({ type: 'user.showDetails' })}
                      onHide={() => chart.send({ type: 'user.hideDetails' })}
                    />
                  ) : null
                }
                onReport={() => {
                  chart.send({ type: 'user.reportLostStolen', card });
                  if (chart.getSnapshot().hasTag('reporting')) reportedCard.current = card.id;
                }}
              />
            )}
          />
        ) : null}
        <p className="screen-links">
          {state.hasTag('cards') && lock ? <OrderCardLink lock={lock} /> : null}
          <Link to="/home">
            <Trans>Back to home</Trans>
          </Link>
        </p>
      </section>
    </>
  );
}

/** Order a physical card, when none works or is on its way among the cards shown. */
function OrderCardLink({ lock }: { lock: CardLockActor }) {
  const cards = useSelector(lock, (s) => s.context.cards);
  if (cards.some((card) => card.type === 'PHYSICAL' && (card.isActive || card.isPending))) return null;
  return (
    <Link to="/order-card/{-$step}" params={{ step: undefined }}>
      <Trans>Order a physical card</Trans>
    </Link>
  );
}

/** The cards as the lock chart has them (each lock or unlock replaces its card). */
function CardList({
  lock,
  initialSlide,
  render,
}: {
  lock: CardLockActor;
  initialSlide: number;
  render: (card: Card, index: number) => ReactNode;
}) {
  const cards = useSelector(lock, (s) => s.context.cards);
  if (cards.length === 0) {
    return (
      <p>
        <Trans>You don't have a card yet.</Trans>
      </p>
    );
  }
  return <CardCarousel initialSlide={initialSlide} slides={cards.map((card, index) => ({ key: card.id, content: render(card, index) }))} />;
}

type SlideProps = {
  card: Card;
  index: number;
  lock: CardLockActor;
  locale: Locale;
  cardImageURL: string | null;
  details: ReactNode;
  onReport: () => void;
};

function CardSlide({ card, index, lock, locale, cardImageURL, details, onReport }: SlideProps) {
  const working = hasLock(card);
  const lockStatus = useSelector(lock, (s) => cardLockStatusOf(s, card.id));
  // A lock or unlock whose outcome could not be read: the card's last known state is not said as a fact.
  const unconfirmed = lockStatus === 'lockUnconfirmed' || lockStatus === 'unlockUnconfirmed';
  const statusDetail = unconfirmed ? null : cardStatusDetail(card, locale);
  return (
    <>
      <CardFace card={card} imageURL={cardImageURL} />
      <h2 className="card-name">
        <CardName card={card} />
      </h2>
      {/* "Locked. Purchases and ATM withdrawals are declined…": the status is a sentence of its own, seen and heard. */}
      <p className="card-status">
        <strong>
          {unconfirmed ? <Trans>Status not confirmed</Trans> : <CardStatusText card={card} />}
          {statusDetail ? '.' : null}
        </strong>
        {statusDetail ? (
          <>
            {' '}
            <span className="card-status-detail">{statusDetail}</span>
          </>
        ) : null}
      </p>
      {working ? (
        <LockSwitch card={card} lock={lock} status={lockStatus} />
      ) : lockStatus === 'lockFailed' || lockStatus === 'unlockFailed' ? (
        <LockGone status={lockStatus} />
      ) : null}
      {details}
      {/* No empty list for a screen reader to announce (a virtual card has no actions here). */}
      {isReadyToActivate(card) || (working && card.type === 'PHYSICAL') || canReportLostStolen(card) ? (
        <ul className="card-actions">
          {isReadyToActivate(card) ? (
            <li>
              <Link
                className="button"
                to="/activate/{-$step}"
                params={{ step: undefined }}
                search={activationSearch(card)}
              >
                <Trans>Activate</Trans>
              </Link>
            </li>
          ) : null}
          {working && card.type === 'PHYSICAL' ? (
            <>
              <li>
                <Link to="/reset-pin/{-$step}" params={{ step: undefined }} search={pinLinkSearch(card, index, 'card')}>
                  <Trans>Set PIN</Trans>
                </Link>
              </li>
              <li>
                <Link to="/reset-pin/{-$step}" params={{ step: undefined }} search={pinLinkSearch(card, index, 'atm')}>
                  <Trans>Change ATM PIN</Trans>
                </Link>
              </li>
            </>
          ) : null}
          {canReportLostStolen(card) ? (
            <li>
              <button type="button" id={reportButtonId(card.id)} className="link-button" onClick={onReport}>
                <Trans>Report lost or stolen</Trans>
              </button>
            </li>
          ) : null}
          {canReplaceDamaged(card) ? (
            <li>
              <Link to="/replacement-card/{-$step}" params={{ step: undefined }} search={{ cardId: card.id }}>
                <Trans>Replace a damaged card</Trans>
              </Link>
            </li>
          ) : null}
        </ul>
      ) : null}
    </>
  );
}

/** The card's picture: the virtual card's image from the processor, else a plain card face with the masked number. */
function CardFace({ card, imageURL }: { card: Card; imageURL: string | null }) {
  if (imageURL) {
    return <img className="card-face card-image" src={imageURL} alt="" width={320} height={202} />;
  }
  return (
    <div className={card.type === 'VIRTUAL' ? 'card-face card-face-virtual' : 'card-face'} aria-hidden="true">
      <span className="card-face-brand">Providers</span>
      <span className="card-face-number">{card.lastFour ? <CardNumber lastFour={card.lastFour} /> : '•••• ••••'}</span>
    </div>
  );
}

/**
 * Lock or unlock: a switch, with how the call ended said under it (a failure never in the error modal). While the call is
 * on its way (or the card is read again after no answer) it is aria-disabled, so the keyboard's focus stays on it for the next press. Its name says
 * which card ("Lock card ending in 5678"): a list of a screen's controls tells the cards' switches apart.
 */
function LockSwitch({ card, lock, status }: { card: Card; lock: CardLockActor; status: CardLockStatus }) {
  const { t } = useLingui();
  const lastFour = card.lastFour;
  const busy = useSelector(lock, (s) => s.hasTag('busy'));
  const errorId = `lock-error-${card.id}`;
  const failed = status === 'lockFailed' || status === 'unlockFailed' || status === 'lockUnconfirmed' || status === 'unlockUnconfirmed';
  return (
    <div className="lock-row">
      <button
        type="button"
        role="switch"
        className="lock-switch"
        aria-checked={card.frozen}
        aria-describedby={failed ? errorId : undefined}
        aria-disabled={busy}
        onClick={() => !busy && lock.send({ type: card.frozen ? 'user.unlock' : 'user.lock', cardId: card.id })}
      >
        <span className="lock-switch-track" aria-hidden="true">
          <span className="lock-switch-thumb" />
        </span>
        <Trans>Lock card</Trans>
        {lastFour ? (
          <>
            {' '}
            <span className="visually-hidden">{t`ending in ${lastFour}`}</span>
          </>
        ) : null}
      </button>
      <p className="lock-progress" role="status">
        {status === 'locking' ? (
          <Trans>Locking your card…</Trans>
        ) : status === 'unlocking' ? (
          <Trans>Unlocking your card…</Trans>
        ) : status === 'checking' ? (
          <Trans>Checking your card…</Trans>
        ) : status === 'locked' ? (
          <Trans>Your card is locked.</Trans>
        ) : status === 'unlocked' ? (
          <Trans>Your card is unlocked.</Trans>
        ) : null}
      </p>
      <p id={errorId} className="form-error" role="alert">
        {status === 'lockFailed' ? (
          <Trans>We weren't able to lock your card.</Trans>
        ) : status === 'unlockFailed' ? (
          <Trans>We weren't able to unlock your card.</Trans>
        ) : status === 'lockUnconfirmed' ? (
          <Trans>We couldn't confirm that your card is locked. Lock it again to be sure.</Trans>
        ) : status === 'unlockUnconfirmed' ? (
          <Trans>We couldn't confirm that your card is unlocked. Unlock it again to be sure.</Trans>
        ) : null}
      </p>
    </div>
  );
}

/**
 * A lock or unlock refused because the card no longer has a lock (reported lost or stolen, or stopped,
 * on another tab or device): its switch is gone with the cards read again, so the failure is said here,
 * and takes the keyboard's focus the switch had.
 */
function LockGone({ status }: { status: 'lockFailed' | 'unlockFailed' }) {
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focusIsNowhere()) said.current?.focus();
  }, []);
  return (
    <p ref={said} className="form-error" role="alert" tabIndex={-1}>
      {status === 'lockFailed' ? <Trans>We weren't able to lock your card.</Trans> : <Trans>We weren't able to unlock your card.</Trans>}{' '}
      <Trans>This card can't be locked or unlocked anymore.</Trans>
    </p>
  );
}

/** The virtual card's number, expiry and CVV: the processor's page in a frame on its own origin, on request. */
function VirtualCardDetails(props: { shown: string | null; loading: boolean; failed: boolean; onShow: () => void; onHide: () => void }) {
  const { t } = useLingui();
  const frame = useRef<HTMLIFrameElement>(null);
  const show = useRef<HTMLButtonElement>(null);
  const wasShown = useRef(false);
  // The focus inside the processor's page is not the frame's :focus (another document), and Tab into it
  // fires no focus event on the frame: this window's blur does, with the frame as the active element.
  const [frameFocused, setFrameFocused] = useState(false);
  useEffect(() => {
    if (!props.shown) return;
    const check = () => setFrameFocused(frame.current !== null && document.activeElement === frame.current);
    window.addEventListener('blur', check);
    window.addEventListener('focus', check);
    document.addEventListener('focusin', check);
    check();
    return () => {
      window.removeEventListener('blur', check);
      window.removeEventListener('focus', check);
      document.removeEventListener('focusin', check);
    };
  }, [props.shown]);
  useEffect(() => {
    // "Show card details" gave way to the frame, taking the keyboard's focus with it: the focus goes to
    // what was asked for, not to the page's start. "Hide card details" gives it back the same way.
    if (focusIsNowhere()) {
      if (props.shown) frame.current?.focus();
      else if (wasShown.current) show.current?.focus();
    }
    wasShown.current = props.shown !== null;
  }, [props.shown]);
  if (props.shown) {
    return (
      <div className="card-details">
        <iframe
          ref={frame}
          className={frameFocused ? 'processor-frame card-details-frame frame-focused' : 'processor-frame card-details-frame'}
          src={props.shown}
          title={t`Your virtual card's number, expiry date and CVV`}
          sandbox="allow-scripts allow-same-origin"
          referrerPolicy="no-referrer"
        />
        <button type="button" className="button button-secondary" onClick={props.onHide}>
          <Trans>Hide card details</Trans>
        </button>
      </div>
    );
  }
  if (props.failed) {
    return (
      <RetryNotice advise onRetry={props.onShow}>
        <Trans>We couldn't show your card details.</Trans>
      </RetryNotice>
    );
  }
  return (
    <ActionButton ref={show} secondary unavailable={props.loading} onPress={props.onShow}>
      {props.loading ? <Trans>Opening your card details…</Trans> : <Trans>Show card details</Trans>}
    </ActionButton>
  );
}
