/**
 * /order-card/:step? (spec §2, §9): order a physical card for $5 from the balance, arriving in 10 to 15
 * business days. Step 1 (an account never funded) says what the card is and costs; step 2 reviews the
 * fee, the balance and the address it is mailed to; step 3 confirms and orders; step 4 is the receipt. The chart is
 * machines/cards/orderCard.ts; the route's step follows it.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { orderCardMachine, orderCardProgress, stepOfOrderCard, type OrderCardEvent } from '../../../../machines/cards/orderCard.ts';
import { moneyConfirmationShows } from '../../../../machines/shared/moneyConfirmation.ts';
import { useServices } from '../../../app/services.tsx';
import { StepIndicator } from '../../../shared/components/StepIndicator.tsx';
import { useHeadingFocus } from '../../../shared/components/useHeadingFocus.ts';
import { routeStepOf, useStepParam } from '../../../shared/components/useStepParam.ts';
import type { Locale } from '../../../../contract/shared/locale.ts';
import { formatDate } from '../../../shared/format/date.ts';
import { formatDollars } from '../../../shared/format/money.ts';
import { unexpectedErrorMessage } from '../../../shared/messages.ts';
import { MoneyConfirmationStep, MoneyLines } from '../../../shared/moneyConfirmation/MoneyConfirmationStep.tsx';
import { AccountLoad, CardFlowLinks, NothingOrdered } from '../cardFlowParts.tsx';
import { activationSearch, isReadyToActivate } from '../../../shared/cards/cardLife.ts';
import { ArrivalIfOrderedToday, ArrivalOfOrdered, ArrivalWindow, FeeTaken, MailingAddress } from '../cardDelivery.tsx';
import { cardsCalls } from '../cardsCalls.ts';
import '../cardOrder.css';
import { ResultHeading } from '../../../shared/screens/ResultHeading.tsx';
import { msg } from '@lingui/core/macro';

/** Result screens' headings, which title the tab while they are up (ResultHeading). */
const receiptTitle = msg`Your card is on its way`;
const alreadyOrderedTitle = msg`Your card is already on its way`;
const alreadyHaveCardTitle = msg`You already have a Providers Card`;

const orderCardRoute = getRouteApi('/_accessToken/order-card/{-$step}');

type Snapshot = SnapshotFrom<typeof orderCardMachine>;
type Props = { state: Snapshot; send: (event: OrderCardEvent) => void; locale: Locale };

const titleId = 'order-card-title';

export function OrderCardView() {
  const { api, session } = useServices();
  const router = useRouter();
  const { step } = orderCardRoute.useParams();
  const [calls] = useState(() => cardsCalls(api));
  const order = useActorRef(
    orderCardMachine.provide({
      actors: {
        getHome: fromPromise(() => api.getHome()),
        getUser: fromPromise(() => api.getUser()),
        orderCard: fromPromise(({ input }) => calls.orderCard(input.idempotencyKey)),
      },
    }),
  );
  const state = useSelector(order, (s) => s);
  const locale = useSelector(session, (s) => s.context.locale);
  useStepParam({
    routeStep: routeStepOf(step),
    machineStep: stepOfOrderCard(state),
    currentStep: () => stepOfOrderCard(order.getSnapshot()),
    goToStep: (to) => order.send({ type: 'user.goToStep', step: to }),
    showStep: (to, replace) => void router.navigate({ to: '/order-card/{-$step}', params: { step: String(to) }, replace }),
    finished: state.hasTag('receipt'),
  });
  const progress = orderCardProgress(state);
  const props = { state, send: order.send, locale };

  return (
    <section className="screen card-flow" aria-labelledby={titleId} aria-busy={state.hasTag('busy')}>
      {progress ? <StepIndicator current={progress.current} total={progress.total} /> : null}
      {state.hasTag('loading') || state.hasTag('loadFailed') ? (
        <AccountLoad
          titleId={titleId}
          title={<Trans>Order your Providers Card</Trans>}
          failed={state.hasTag('loadFailed')}
          onRetry={() => order.send({ type: 'user.retry' })}
        />
      ) : state.hasTag('alreadyOrdered') ? (
        <AlreadyOrdered {...props} />
      ) : state.hasTag('alreadyHaveCard') ? (
        <AlreadyHaveCard nothingOrdered={refusedForCards(state)} />
      ) : state.hasTag('intro') ? (
        <Intro {...props} />
      ) : state.hasTag('receipt') ? (
        <Receipt {...props} />
      ) : (
        <Payment {...props} />
      )}
    </section>
  );
}

/** Step 1 (an account never funded): what the card is, what it costs, and that the balance pays for it. */
function Intro({ state, send, locale }: Props) {
  const heading = useHeadingFocus();
  const { amountCents, balanceCents } = state.context;
  const fee = formatDollars(amountCents);
  const balance = formatDollars(balanceCents);
  return (
    <>
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        <Trans>Order your Providers Card</Trans>
      </h1>
      <p>
        <Trans>
          A physical Providers Card lets you pay in stores and take out cash at ATMs. Your virtual card keeps working while you wait for it.
        </Trans>
      </p>
      <p>
        <Trans>Sending it costs {fee}, taken from your balance.</Trans> <ArrivalIfOrderedToday locale={locale} />
      </p>
      {balanceCents < amountCents ? (
        <div className="notice">
          <p>
            <Trans>
              Your balance is {balance}. Add at least {fee} to your account before you order.
            </Trans>
          </p>
          <p>
            <Link to="/add-money">
              <Trans>Add money</Trans>
            </Link>
          </p>
        </div>
      ) : null}
      <button type="button" className="button" onClick={() => send({ type: 'user.continue' })}>
        <Trans>Continue</Trans>
      </button>
    </>
  );
}

/** Steps 2 and 3: the money confirmation, in the words of ordering a card. */
function Payment({ state, send, locale }: Props) {
  const { i18n } = useLingui();
  const { amountCents, balanceCents, address } = state.context;
  const fee = formatDollars(amountCents);
  return (
    <MoneyConfirmationStep
      titleId={titleId}
      shows={moneyConfirmationShows(state)}
      amountCents={amountCents}
      balanceCents={balanceCents}
      amountLabel={<Trans>Card fee</Trans>}
      reviewTitle={<Trans>Review your card order</Trans>}
      review={
        <>
          <p>
            <Trans>We'll mail your Providers Card to:</Trans>
          </p>
          {address ? <MailingAddress address={address} /> : null}
          <p>
            <ArrivalIfOrderedToday locale={locale} />
          </p>
        </>
      }
      confirmTitle={<Trans>Confirm your order</Trans>}
      confirmText={<Trans>We'll take {fee} from your balance and mail your card.</Trans>}
      payButton={<Trans>Order my card for {fee}</Trans>}
      busyButton={<Trans>Ordering your card…</Trans>}
      // Refused for the account's cards (a card on its way, or one in use) is said on its own screen (AlreadyOrdered, AlreadyHaveCard).
      refusal={i18n._(unexpectedErrorMessage)}
      onContinue={() => send({ type: 'user.continue' })}
      onConfirm={(idempotencyKey) => send({ type: 'user.confirm', idempotencyKey })}
      onBack={() => send({ type: 'user.back' })}
    />
  );
}

/** Step 4: what was taken, the balance now, and when the card should arrive. */
function Receipt({ state, locale }: Props) {
  const { paidCents, balanceCents, card } = state.context;
  const paid = paidCents ?? 0;
  const fee = formatDollars(paid);
  return (
    <>
      <ResultHeading id={titleId} title={receiptTitle} />
      <p role="status">
        <Trans>We took {fee} from your balance and ordered your Providers Card.</Trans>
      </p>
      <MoneyLines
        lines={[
          { label: <Trans>Card fee paid</Trans>, cents: paid },
          { label: <Trans>Your balance now</Trans>, cents: balanceCents, emphasis: true },
        ]}
      />
      <p>
        <ArrivalOfOrdered window={card?.delivery} locale={locale} />{' '}
        <Trans>When it arrives, activate it here with the last 4 digits and the expiration date printed on it.</Trans>
      </p>
      <p className="screen-links">
        <Link to="/home">
          <Trans>Go to home</Trans>
        </Link>
      </p>
    </>
  );
}

/** The order just asked for was refused for the account's cards (chart state `cardRefused`): nothing was ordered or charged. */
const refusedForCards = (state: Snapshot) => state.context.refusal === 'cardPending' || state.context.refusal === 'notAllowed';

/**
 * A card is already on its way (found on loading, or the answer to the order just asked for: nothing
 * charged): when it should arrive, and activation once it has shipped.
 */
function AlreadyOrdered({ state, locale }: Props) {
  const { card } = state.context;
  const shippedOn = card?.delivery?.shippedOn ? formatDate(card.delivery.shippedOn, locale, 'sentence') : null;
  return (
    <>
      <ResultHeading id={titleId} title={alreadyOrderedTitle} />
      {refusedForCards(state) ? <NothingOrdered /> : null}
      <p>
        <Trans>You can have one new card on its way at a time, so there's nothing more to order.</Trans>{' '}
        {card?.delivery ? <ArrivalWindow window={card.delivery} locale={locale} /> : null}
      </p>
      {card?.delivery ? (
        <p>
          <FeeTaken delivery={card.delivery} />
        </p>
      ) : null}
      {shippedOn ? (
        <p>
          <Trans>It shipped on {shippedOn}. Once it's in your hands, activate it to start using it.</Trans>
        </p>
      ) : null}
      <p className="screen-links">
        {card && isReadyToActivate(card) ? (
          <Link to="/activate/{-$step}" params={{ step: '1' }} search={activationSearch(card)} className="button">
            <Trans>Activate your card</Trans>
          </Link>
        ) : null}
        <Link to="/home">
          <Trans>Go to home</Trans>
        </Link>
      </p>
    </>
  );
}

/** A physical card already works (found on loading, or the answer to the order just asked for: nothing charged): replace a damaged one, report a lost one. */
function AlreadyHaveCard({ nothingOrdered }: { nothingOrdered: boolean }) {
  return (
    <>
      <ResultHeading id={titleId} title={alreadyHaveCardTitle} />
      {nothingOrdered ? <NothingOrdered /> : null}
      <p>
        <Trans>
          If your card is damaged, we can send you a new one. If it was lost or stolen, report it on Manage cards: we'll block it at once and send you a new one free.
        </Trans>
      </p>
      <CardFlowLinks>
          <Link to="/replacement-card/{-$step}" params={{ step: undefined }}>
            <Trans>Replace a damaged card</Trans>
          </Link>
      </CardFlowLinks>
    </>
  );
}
