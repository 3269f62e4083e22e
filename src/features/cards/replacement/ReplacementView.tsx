/**
 * /replacement-card/:step? (spec §2 loads the user first and passes the query; §4 card life; §9 10 to 15
 * business days): replace a damaged physical card for the card replacement fee. Step 1 reviews where it
 * goes, when, what it costs and that the old card works until the new one ships; step 2 confirms and
 * orders; step 3 is the receipt. The chart is machines/cards/replacement.ts; the route's step follows it.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { replacementMachine, stepOfReplacement, type ReplacementEvent } from '../../../../machines/cards/replacement.ts';
import { moneyConfirmationShows } from '../../../../machines/shared/moneyConfirmation.ts';
import { useServices } from '../../../app/services.tsx';
import { StepIndicator } from '../../../shared/components/StepIndicator.tsx';
import { routeStepOf, useStepParam } from '../../../shared/components/useStepParam.ts';
import type { Locale } from '../../../../contract/shared/locale.ts';
import { formatDollars } from '../../../shared/format/money.ts';
import { unexpectedErrorMessage } from '../../../shared/messages.ts';
import { MoneyConfirmationStep, MoneyLines } from '../../../shared/moneyConfirmation/MoneyConfirmationStep.tsx';
import { AccountLoad, CardFlowLinks, NothingOrdered } from '../cardFlowParts.tsx';
import { ArrivalIfOrderedToday, ArrivalOfOrdered, ArrivalWindow, FeeTaken, MailingAddress } from '../cardDelivery.tsx';
import { cardsCalls } from '../cardsCalls.ts';
import '../cardOrder.css';
import { ResultHeading } from '../../../shared/screens/ResultHeading.tsx';
import { msg } from '@lingui/core/macro';

/** Result screens' headings, which title the tab while they are up (ResultHeading). */
const receiptTitle = msg`Your new card is on its way`;
const alreadyOrderedTitle = msg`A new card is already on its way`;
const nothingToReplaceTitle = msg`No card to replace`;

const replacementRoute = getRouteApi('/_accessToken/replacement-card/{-$step}');

type Snapshot = SnapshotFrom<typeof replacementMachine>;
type Props = { state: Snapshot; send: (event: ReplacementEvent) => void; locale: Locale };

const titleId = 'replacement-card-title';

export function ReplacementView() {
  const { api, session } = useServices();
  const router = useRouter();
  const { step } = replacementRoute.useParams();
  const search = replacementRoute.useSearch();
  const [calls] = useState(() => cardsCalls(api));
  const replacement = useActorRef(
    replacementMachine.provide({
      actors: {
        getUser: fromPromise(() => api.getUser()),
        getHome: fromPromise(() => api.getHome()),
        replaceCard: fromPromise(({ input }) => calls.replaceCard(input.id, input.idempotencyKey)),
      },
    }),
    { input: search },
  );
  const state = useSelector(replacement, (s) => s);
  const locale = useSelector(session, (s) => s.context.locale);
  const machineStep = stepOfReplacement(state);
  useStepParam({
    routeStep: routeStepOf(step),
    machineStep,
    currentStep: () => stepOfReplacement(replacement.getSnapshot()),
    goToStep: (to) => replacement.send({ type: 'user.goToStep', step: to }),
    showStep: (to, replace) =>
      void router.navigate({
        to: '/replacement-card/{-$step}',
        params: { step: String(to) },
        search: (previous: Record<string, unknown>) => previous,
        replace,
      }),
    finished: state.hasTag('receipt'),
  });
  const props = { state, send: replacement.send, locale };

  return (
    <section className="screen card-flow" aria-labelledby={titleId} aria-busy={state.hasTag('busy')}>
      {machineStep ? <StepIndicator current={machineStep} total={3} /> : null}
      {state.hasTag('loading') || state.hasTag('loadFailed') ? (
        <AccountLoad
          titleId={titleId}
          title={<Trans>Replace a damaged card</Trans>}
          failed={state.hasTag('loadFailed')}
          onRetry={() => replacement.send({ type: 'user.retry' })}
        />
      ) : state.hasTag('alreadyOrdered') ? (
        <AlreadyOrdered {...props} />
      ) : state.hasTag('nothingToReplace') ? (
        <NothingToReplace />
      ) : state.hasTag('receipt') ? (
        <Receipt {...props} />
      ) : (
        <Payment {...props} />
      )}
    </section>
  );
}

/** Steps 1 and 2: the money confirmation, in the words of replacing a card. */
function Payment({ state, send, locale }: Props) {
  const { i18n } = useLingui();
  const { amountCents, balanceCents, refusal, user, card } = state.context;
  const fee = formatDollars(amountCents);
  const lastFour = card?.lastFour ?? '';
  return (
    <MoneyConfirmationStep
      titleId={titleId}
      shows={moneyConfirmationShows(state)}
      amountCents={amountCents}
      balanceCents={balanceCents}
      amountLabel={<Trans>Replacement fee</Trans>}
      reviewTitle={<Trans>Replace a damaged card</Trans>}
      review={
        <>
          <p>
            <Trans>We'll mail a new Providers Card to:</Trans>
          </p>
          {user ? <MailingAddress address={user.address} /> : null}
          <p>
            <ArrivalIfOrderedToday locale={locale} />
          </p>
          <p>
            <Trans>Your card ending in {lastFour} keeps working until the new one ships. Then it stops, so keep an eye out for the new one.</Trans>
          </p>
          <p>
            <Trans>If your card was lost or stolen, don't replace it here: report it on Manage cards. We'll block it at once and send a new one free.</Trans>{' '}
            <Link to="/manage-cards">
              <Trans>Manage cards</Trans>
            </Link>
          </p>
        </>
      }
      confirmTitle={<Trans>Confirm your replacement</Trans>}
      confirmText={<Trans>We'll take {fee} from your balance and mail you a new card. Your card ending in {lastFour} keeps working until the new one ships.</Trans>}
      payButton={<Trans>Replace my card for {fee}</Trans>}
      busyButton={<Trans>Ordering your new card…</Trans>}
      refusal={
        // A new card already on its way (cardPending) is said on its own screen (AlreadyOrdered).
        refusal === 'notAllowed' ? (
          <Trans>This card can't be replaced here. If it was lost or stolen, report it on Manage cards. Nothing was charged.</Trans>
        ) : (
          i18n._(unexpectedErrorMessage)
        )
      }
      onContinue={() => send({ type: 'user.continue' })}
      onConfirm={(idempotencyKey) => send({ type: 'user.confirm', idempotencyKey })}
      onBack={() => send({ type: 'user.back' })}
    />
  );
}

/** Step 3: what was taken, the balance now, and what happens next. */
function Receipt({ state, locale }: Props) {
  const { paidCents, balanceCents, replacement, card } = state.context;
  const paid = paidCents ?? 0;
  const fee = formatDollars(paid);
  const lastFour = card?.lastFour ?? '';
  return (
    <>
      <ResultHeading id={titleId} title={receiptTitle} />
      <p role="status">
        <Trans>We took {fee} from your balance and ordered your new Providers Card.</Trans>
      </p>
      <MoneyLines
        lines={[
          { label: <Trans>Replacement fee paid</Trans>, cents: paid },
          { label: <Trans>Your balance now</Trans>, cents: balanceCents, emphasis: true },
        ]}
      />
      <p>
        <ArrivalOfOrdered window={replacement?.delivery} locale={locale} />
      </p>
      <p>
        <Trans>
          Your card ending in {lastFour} keeps working until the new one ships, then it stops. When the new card arrives, activate it with the last 4 digits and the expiration date printed on it.
        </Trans>
      </p>
      <p className="screen-links">
        <Link to="/home">
          <Trans>Go to home</Trans>
        </Link>
      </p>
    </>
  );
}

/** A new card is already on its way: found on loading, or the answer to the replacement just asked for (nothing charged). */
function AlreadyOrdered({ state, locale }: Props) {
  const { replacement, refusal } = state.context;
  return (
    <>
      <ResultHeading id={titleId} title={alreadyOrderedTitle} />
      {refusal === 'cardPending' ? <NothingOrdered /> : null}
      <p>
        <Trans>You can have one new card on its way at a time, so there's nothing more to order.</Trans>{' '}
        {replacement?.delivery ? <ArrivalWindow window={replacement.delivery} locale={locale} /> : null}
      </p>
      {replacement?.delivery ? (
        <p>
          <FeeTaken delivery={replacement.delivery} />
        </p>
      ) : null}
      <CardFlowLinks />
    </>
  );
}

/** No physical card in use to replace. */
function NothingToReplace() {
  return (
    <>
      <ResultHeading id={titleId} title={nothingToReplaceTitle} />
      <p>
        <Trans>
          You don't have a physical card in use. If you never got one, you can order one. If your card was lost or stolen, its replacement was sent when you reported it.
        </Trans>
      </p>
      <p className="screen-links">
        <Link to="/order-card/{-$step}" params={{ step: undefined }}>
          <Trans>Order a physical card</Trans>
        </Link>
        <Link to="/home">
          <Trans>Go to home</Trans>
        </Link>
      </p>
    </>
  );
}
