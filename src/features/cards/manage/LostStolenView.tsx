/**
 * Report a lost or stolen card (machines/cards/lostStolen.ts): lost or stolen, what will happen, then
 * the card blocked at once with its free replacement on its way (or the one already ordered for damage),
 * and when it should arrive. A report with no answer may have been carried out: it says so and sends
 * the same report again on request; a refused one says nothing of whether the card is blocked. Either
 * way, back to the cards loads them again.
 */
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, type ReactNode } from 'react';
import type { LostStolenActor } from '../../../../machines/cards/manageCards.ts';
import { ActionButton } from '../../../shared/components/ActionButton.tsx';
import { takeFocusIfNowhere } from '../../../shared/components/focusIsNowhere.ts';
import { useHeadingFocus } from '../../../shared/components/useHeadingFocus.ts';
import { RetryNotice } from '../../../shared/components/RetryNotice.tsx';
import { useOwnTitle } from '../../../shared/screens/documentTitle.ts';
import type { Locale } from '../../../../contract/shared/locale.ts';
import { CardName, DeliveryWindow } from './CardText.tsx';

/** The tab's title while this screen is shown in place of the cards (same address, WCAG 2.2 SC 2.4.2). */
const lostStolenTitle = msg`Report a lost or stolen card`;

export function LostStolenView({ report, locale, hasVirtualCard }: { report: LostStolenActor; locale: Locale; hasVirtualCard: boolean }) {
  useOwnTitle(lostStolenTitle);
  const state = useSelector(report, (s) => s);
  const { card, status, replacement, replacementOrdered } = state.context;
  const lastFour = card.lastFour;
  const at = (tag: 'choosing' | 'confirming' | 'busy' | 'reported' | 'failed' | 'refused' | 'unconfirmed') => state.hasTag(tag);
  const send = report.send;

  if (at('reported') && replacement) {
    return (
      <section className="screen" aria-labelledby="lost-stolen-title">
        <StepHeading>
          <Trans>Your card is blocked</Trans>
        </StepHeading>
        <div className="notice" role="status">
          <p>
            {lastFour ? (
              <Trans>Your card ending in {lastFour} is blocked for all purchases and ATM withdrawals now.</Trans>
            ) : (
              <Trans>Your card is blocked for all purchases and ATM withdrawals now.</Trans>
            )}
          </p>
        </div>
        <p>
          {replacementOrdered ? <Trans>Your new card is still on its way.</Trans> : <Trans>A replacement card is on its way, free of charge.</Trans>}{' '}
          {replacement.delivery ? <DeliveryWindow delivery={replacement.delivery} locale={locale} /> : null}
        </p>
        {hasVirtualCard ? (
          <p>
            <Trans>Your virtual card keeps working for online purchases.</Trans>
          </p>
        ) : null}
        <p>
          <Trans>When your new card arrives, activate it in the app to start using it.</Trans>
        </p>
        <button type="button" className="button" onClick={() => send({ type: 'user.done' })}>
          <Trans>Back to your cards</Trans>
        </button>
      </section>
    );
  }

  return (
    <section className="screen" aria-labelledby="lost-stolen-title" aria-busy={at('busy')}>
      <StepHeading key={at('choosing') ? 'choosing' : 'confirming'}>
        <Trans>Report a lost or stolen card</Trans>
      </StepHeading>
      <p className="card-name">
        <CardName card={card} />
      </p>
      {at('choosing') ? (
        <>
          <p>
            <Trans>Is your card lost, or was it stolen?</Trans>
          </p>
          <div className="button-stack">
            <button type="button" className="button" onClick={() => send({ type: 'user.choose', status: 'LOST' })}>
              <Trans>It's lost</Trans>
            </button>
            <button type="button" className="button" onClick={() => send({ type: 'user.choose', status: 'STOLEN' })}>
              <Trans>It was stolen</Trans>
            </button>
            <button type="button" className="button button-secondary" onClick={() => send({ type: 'user.cancel' })}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </>
      ) : (
        <>
          <p>
            {status === 'STOLEN' ? <Trans>You're reporting this card stolen.</Trans> : <Trans>You're reporting this card lost.</Trans>}
          </p>
          {/* Refused, what a report would do is not what happens: only the refusal is said. */}
          {at('refused') ? null : (
          <ul>
            <li>
              <Trans>We block it right away for all purchases and ATM withdrawals. It can't be unlocked again.</Trans>
            </li>
            <li>
              {replacementOrdered ? (
                <Trans>The new card you already ordered takes its place. We don't send another one.</Trans>
              ) : (
                <Trans>We send you a replacement card free of charge. It arrives in 10 to 15 business days.</Trans>
              )}
            </li>
            {hasVirtualCard ? (
              <li>
                <Trans>Your virtual card keeps working for online purchases.</Trans>
              </li>
            ) : null}
          </ul>
          )}
          {at('unconfirmed') ? (
            // The report may have been carried out and its answer lost: Try again sends the same one.
            <RetryNotice onRetry={() => send({ type: 'user.retry' })}>
              <Trans>We couldn't confirm your report. Your card may already be blocked.</Trans>
            </RetryNotice>
          ) : at('refused') ? (
            <RefusedNotice onBack={() => send({ type: 'user.done' })} />
          ) : (
            <div className="button-stack">
              <ActionButton unavailable={at('busy')} onPress={() => send({ type: 'user.confirm' })}>
                {at('busy') ? <Trans>Blocking your card…</Trans> : replacementOrdered ? <Trans>Block my card</Trans> : <Trans>Block my card and send a new one</Trans>}
              </ActionButton>
              <ActionButton secondary unavailable={at('busy')} onPress={() => send({ type: 'user.back' })}>
                <Trans>Back</Trans>
              </ActionButton>
            </div>
          )}
          {at('unconfirmed') ? (
            // Sent, whatever came of it: the cards load again and show the card as the card API has it.
            <button type="button" className="link-button cancel-report" onClick={() => send({ type: 'user.done' })}>
              <Trans>Back to your cards</Trans>
            </button>
          ) : at('busy') || at('refused') ? null : (
            <button type="button" className="link-button cancel-report" onClick={() => send({ type: 'user.cancel' })}>
              <Trans>Cancel</Trans>
            </button>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Refused: not reported now, which says nothing of whether the card was reported before (or replaced),
 * so nothing is said of whether it is blocked: the cards, loaded again, show it. The pressed button is
 * gone, so the keyboard's focus goes to the way back (after the error modal, if one opened).
 */
function RefusedNotice({ onBack }: { onBack: () => void }) {
  const back = useRef<HTMLButtonElement>(null);
  useEffect(() => takeFocusIfNowhere(() => back.current), []);
  return (
    <div className="notice" role="alert">
      <p>
        <Trans>We weren't able to report your card. It may have been reported or replaced already. Your cards show how it is now.</Trans>
      </p>
      <button ref={back} type="button" className="button" onClick={onBack}>
        <Trans>Back to your cards</Trans>
      </button>
    </div>
  );
}

/** The step's title, focused when it appears so the change is announced. */
function StepHeading({ children }: { children: ReactNode }) {
  const heading = useHeadingFocus();
  return (
    <h1 id="lost-stolen-title" ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}
