/**
 * /reset-pin/:step? (spec §2, query returnTo): set a card's PIN, or change its ATM PIN, on the card
 * processor's hosted page, framed on the processor's own origin (machines/cards/resetPin.ts). The PIN is
 * typed there and never passes through the app; the page's result reaches the chart only from that
 * frame and an allowlisted processor origin (processorMessages.ts). Success goes back to returnTo.
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PinKind } from '../../../../contract/cards/types.ts';
import { resetPinStatusOf } from '../../../../machines/cards/resetPin.ts';
import { useServices } from '../../../app/services.tsx';
import { takeFocusIfNowhere } from '../../../shared/components/focusIsNowhere.ts';
import { RetryNotice } from '../../../shared/components/RetryNotice.tsx';
import { Skeleton } from '../../../shared/components/Skeleton.tsx';
import { useHeadingFocus } from '../../../shared/components/useHeadingFocus.ts';
import { useOwnTitle } from '../../../shared/screens/documentTitle.ts';
import { cardPin, defaultReturnTo, resetPinChart } from './resetPinEffects.ts';
import '../processorFrame.css';

const resetPinRoute = getRouteApi('/_accessToken/reset-pin/{-$step}');

/** The tab's title when the query asks for the ATM PIN (the route's title is "Set your PIN"). */
const atmPinTitle = msg`Change your ATM PIN`;

export function ResetPinView() {
  const { cardId, pin = cardPin, returnTo = defaultReturnTo } = resetPinRoute.useSearch();
  // The route sends a visit without a card to the cards screen.
  return cardId ? <ResetPin cardId={cardId} pin={pin} returnTo={returnTo} /> : null;
}

function ResetPin({ cardId, pin, returnTo }: { cardId: string; pin: PinKind; returnTo: string }) {
  const { t } = useLingui();
  const services = useServices();
  const router = useRouter();
  const heading = useHeadingFocus();
  useOwnTitle(pin === 'atm' ? atmPinTitle : null);
  const frame = useRef<HTMLIFrameElement>(null);
  const [chart] = useState(() =>
    resetPinChart(services, {
      frame: () => frame.current?.contentWindow ?? null,
      returnToCaller: () => void router.navigate({ href: returnTo, replace: true }),
    }),
  );
  const pinChange = useActorRef(chart, { input: { cardId, pin } });
  const state = useSelector(pinChange, (s) => s);
  const status = resetPinStatusOf(state);
  const formUrl = state.hasTag('form') ? state.context.formUrl : null;
  // The processor set the PIN but its recording is not confirmed: Try again sends the recording call
  // again, or (`unrecorded`: the card API refused it) opens a fresh form to set it once more.
  const unconfirmed = state.hasTag('unconfirmed');
  const unrecorded = state.hasTag('unrecorded');
  // No form for this card (the card API refused it): no Try again, the way to the cards instead.
  const noPinForCard = state.hasTag('noPinForCard');

  return (
    <section className="screen" aria-labelledby="reset-pin-title" aria-busy={state.hasTag('busy')}>
      <h1 id="reset-pin-title" ref={heading} tabIndex={-1}>
        {pin === 'atm' ? <Trans>Change your ATM PIN</Trans> : <Trans>Set your PIN</Trans>}
      </h1>
      <p>
        <Trans>Your PIN is 4 digits. Avoid PINs that are easy to guess, like 1234 or 1111.</Trans>
      </p>
      {/* Once the processor may have set it, there is no page below to type it on. */}
      {(unconfirmed && !unrecorded) || noPinForCard ? null : (
        <p>
          <Trans>You type it on the secure page of our card processor, below. The Providers app never sees your PIN.</Trans>
        </p>
      )}
      {noPinForCard ? (
        <NoPinForCardNotice focusTarget={heading} />
      ) : status === 'FAILURE' ? (
        // Once the processor said it set the PIN, the screen never says it was not changed.
        <RetryNotice focusOnRetry={heading} onRetry={() => pinChange.send({ type: 'user.retry' })} advise={unconfirmed && !unrecorded}>
          {unrecorded ? (
            <Trans>Your new PIN may already be set, but we couldn't confirm it. To be sure, tap Try again and set it once more.</Trans>
          ) : unconfirmed ? (
            <Trans>Your new PIN may already be set, but we couldn't confirm it.</Trans>
          ) : state.hasTag('formReplaced') ? (
            <>
              <Trans>Sorry, we weren't able to change your PIN...</Trans>{' '}
              <Trans>A newer PIN form for this card was opened in another tab or window. Use that form, or tap Try again to use one here.</Trans>
            </>
          ) : (
            <Trans>Sorry, we weren't able to change your PIN...</Trans>
          )}
        </RetryNotice>
      ) : null}
      {status === 'SUCCESS' ? (
        <p className="notice" role="status">
          <Trans>Your PIN is set.</Trans>
        </p>
      ) : null}
      {state.hasTag('busy') ? <Skeleton label={state.hasTag('saving') ? t`Saving your PIN` : t`Opening the secure PIN form`} blocks={1} /> : null}
      {formUrl ? (
        <iframe
          ref={frame}
          className="processor-frame pin-frame"
          src={formUrl}
          title={pin === 'atm' ? t`Secure form to change your ATM PIN` : t`Secure form to set your PIN`}
          sandbox="allow-scripts allow-forms allow-same-origin"
          referrerPolicy="no-referrer"
        />
      ) : null}
      <p className="screen-links">
        <a
          href={returnTo}
          onClick={(event) => {
            event.preventDefault();
            void router.navigate({ href: returnTo });
          }}
        >
          <Trans>Back</Trans>
        </a>
      </p>
    </section>
  );
}

/**
 * The card API gives no PIN form for this card (no such card of the cardholder, a card id that is none,
 * or not an activated physical card): asking again would be refused the same, so no Try again, the way to the cards instead.
 * The loading skeleton it replaces held no focus; a focus left nowhere goes to the heading (after the
 * error modal, if one opened), as a RetryNotice gives it to its Try again.
 */
function NoPinForCardNotice({ focusTarget }: { focusTarget: RefObject<HTMLElement | null> }) {
  useEffect(() => takeFocusIfNowhere(() => focusTarget.current), [focusTarget]);
  return (
    <div className="notice" role="alert">
      <p>
        <Trans>Sorry, we weren't able to change your PIN...</Trans>{' '}
        <Trans>We can't set a PIN for this card now. Only an activated physical card has a PIN.</Trans>
      </p>
      <p>
        <Link to="/manage-cards">
          <Trans>Manage cards</Trans>
        </Link>
      </p>
    </div>
  );
}
