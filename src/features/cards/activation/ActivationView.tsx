/**
 * /activate/:step? (spec §2 props step and isReplacement, source=carrier from the carrier's link; §4
 * activation INPUTTING → PROCESSING → SUCCESS | FAILURE): the last 4 digits and the expiry printed on
 * the card (step 1), then the card works (step 2). The chart is machines/cards/activation.ts; the route's
 * step follows it.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { useFocusOnProblem } from '../../../shared/components/useFocusOnProblem.ts';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { activationMachine, stepOfActivation, type ActivationEvent } from '../../../../machines/cards/activation.ts';
import { useServices } from '../../../app/services.tsx';
import { StepIndicator } from '../../../shared/components/StepIndicator.tsx';
import { TextField } from '../../../shared/components/TextField.tsx';
import { useHeadingFocus } from '../../../shared/components/useHeadingFocus.ts';
import { routeStepOf, useStepParam } from '../../../shared/components/useStepParam.ts';
import { activationMessages } from './activationMessages.ts';
import { TooManyTriesNotice } from '../../../shared/waitNotices.tsx';
import { cardsCalls } from '../cardsCalls.ts';
import { CardFlowLinks } from '../cardFlowParts.tsx';
import '../cardOrder.css';
import { SubmitButton } from '../../../shared/components/SubmitButton.tsx';
import { ResultHeading } from '../../../shared/screens/ResultHeading.tsx';
import { msg } from '@lingui/core/macro';

/** Result screens' headings, which title the tab while they are up (ResultHeading). */
const activatedTitle = msg`Your card is active`;
const failureTitle = msg`We couldn't activate your card`;
const nothingToActivateTitle = msg`No card to activate`;

const activateRoute = getRouteApi('/_accessToken/activate/{-$step}');

type Snapshot = SnapshotFrom<typeof activationMachine>;

const titleId = 'activate-card-title';

export function ActivationView() {
  const { api } = useServices();
  const router = useRouter();
  const { step } = activateRoute.useParams();
  const { isReplacement, source } = activateRoute.useSearch();
  const replacement = isReplacement === 'true';
  const [calls] = useState(() => cardsCalls(api));
  const expiryField = useRef<HTMLInputElement>(null);
  const activation = useActorRef(
    activationMachine.provide({
      actors: {
        verifyCardLastFour: fromPromise(({ input }) => calls.verifyCardLastFour(input.lastFourCard)),
        activateCard: fromPromise(({ input }) => calls.activateCard(input)),
      },
      actions: {
        clearExpiryField: () => {
          const field = expiryField.current;
          if (!field) return;
          field.value = '';
          field.focus();
        },
      },
    }),
  );
  const state = useSelector(activation, (s) => s);
  useStepParam({
    routeStep: routeStepOf(step),
    machineStep: stepOfActivation(state),
    // The chart decides the step: the form until the card is active, then the confirmation.
    goToStep: () => {},
    showStep: (to, replace) =>
      void router.navigate({ to: '/activate/{-$step}', params: { step: String(to) }, search: (previous: Record<string, unknown>) => previous, replace }),
    finished: state.hasTag('activated'),
  });

  return (
    <section className="screen card-flow" aria-labelledby={titleId} aria-busy={state.hasTag('busy')}>
      {state.hasTag('activated') ? (
        <Activated replacement={replacement} cardId={state.context.card?.id} />
      ) : state.hasTag('failed') ? (
        <Failure onReset={() => activation.send({ type: 'user.reset' })} />
      ) : state.hasTag('nothingToActivate') ? (
        <NothingToActivate />
      ) : (
        <ActivationForm state={state} send={activation.send} replacement={replacement} fromCarrier={source === 'carrier'} expiryField={expiryField} />
      )}
    </section>
  );
}

/** Keeps digits only, as MM/YY: the slash comes by itself, and "1/28" is read as 01/28. */
function asExpiry(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const padded = input.value.replace(/^(\d)\//, '0$1/');
  const digits = padded.replace(/\D/g, '').slice(0, 4);
  const formatted = digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
  if (formatted !== input.value) input.value = formatted;
}

function asLastFour(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const digits = input.value.replace(/\D/g, '').slice(0, 4);
  if (digits !== input.value) input.value = digits;
}

/** Step 1 (INPUTTING, PROCESSING, and the server's wait): the last 4 digits and the expiry. */
function ActivationForm(props: {
  state: Snapshot;
  send: (event: ActivationEvent) => void;
  replacement: boolean;
  fromCarrier: boolean;
  expiryField: RefObject<HTMLInputElement | null>;
}) {
  const { state, send, replacement, fromCarrier, expiryField } = props;
  const { t, i18n } = useLingui();
  const heading = useHeadingFocus();
  const busy = state.hasTag('busy');
  const waiting = state.hasTag('waiting');
  const { fieldErrors, attemptsLeft, retryAt } = state.context;
  const ruleProblem = (field: 'lastFourCard' | 'expiry') => {
    const key = state.hasTag('invalid') ? fieldErrors[field] : undefined;
    return key ? i18n._(activationMessages[key]) : null;
  };
  const triesLeft =
    attemptsLeft !== null && attemptsLeft > 0 ? (
      <>
        {' '}
        <Plural value={attemptsLeft} one="You have 1 more try." other="You have # more tries." />
      </>
    ) : null;
  const lastFourError = state.hasTag('lastFourMismatch') ? (
    <>
      <Trans>These aren't the last 4 digits of the card we sent you.</Trans>
      {triesLeft}
    </>
  ) : (
    ruleProblem('lastFourCard')
  );
  const expiryError = state.hasTag('expiryMismatch') ? (
    <>
      <Trans>This expiration date doesn't match the card we sent you. Please enter it again.</Trans>
      {triesLeft}
    </>
  ) : (
    ruleProblem('expiry')
  );

  const formRef = useRef<HTMLFormElement>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  const mismatch = state.hasTag('lastFourMismatch') || state.hasTag('expiryMismatch');
  const refused = state.hasTag('notShipped') || waiting;
  useFocusOnProblem(formRef, state.context, state.hasTag('invalid') || mismatch || refused, problemRef);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    send({ type: 'user.submit', lastFourCard: String(data.get('lastFourCard') ?? ''), expiry: String(data.get('expiry') ?? '') });
  }

  return (
    <>
      <StepIndicator current={1} total={2} />
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        {replacement ? <Trans>Activate your replacement card</Trans> : <Trans>Activate your card</Trans>}
      </h1>
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={busy}>
        {fromCarrier ? (
          <p>
            <Trans>Your Providers Card has arrived. Activate it to start using it.</Trans>
          </p>
        ) : null}
        <p>
          <Trans>Enter the last 4 digits of the 16-digit card number and the expiration date, both printed on your card.</Trans>
          {replacement ? (
            <>
              {' '}
              <Trans>Your old card no longer works.</Trans>
            </>
          ) : null}
        </p>
        <TextField
          id="activation-last-four"
          name="lastFourCard"
          label={t`Last 4 digits of your card`}
          // Back from FAILURE the form is new: what was sent is typed again for the cardholder.
          defaultValue={state.context.form.lastFourCard}
          error={lastFourError}
          className="activation-input"
          inputMode="numeric"
          autoComplete="off"
          pattern="[0-9]*"
          onInput={asLastFour}
        />
        <TextField
          id="activation-expiry"
          name="expiry"
          ref={expiryField}
          label={t`Expiration date (MM/YY)`}
          defaultValue={state.context.form.expiry}
          error={expiryError}
          className="activation-input"
          placeholder={t`MM/YY`}
          inputMode="numeric"
          autoComplete="cc-exp"
          onInput={asExpiry}
        />
        <div ref={problemRef} tabIndex={-1}>
          {state.hasTag('notShipped') ? (
            <p className="form-error" role="alert">
              <Trans>Your card hasn't shipped yet. You can activate it once it's in your hands.</Trans>
            </p>
          ) : null}
          {waiting ? <TooManyTriesNotice retryAt={retryAt} /> : null}
        </div>
        <SubmitButton unavailable={busy || waiting}>
          {busy ? <Trans>Activating…</Trans> : <Trans>Activate</Trans>}
        </SubmitButton>
      </form>
    </>
  );
}

/** SUCCESS (step 2): the card works; a replacement's old card has stopped. */
function Activated({ replacement, cardId }: { replacement: boolean; cardId: string | undefined }) {
  return (
    <>
      <StepIndicator current={2} total={2} />
      <ResultHeading id={titleId} title={activatedTitle} />
      <p role="status">
        <Trans>You can now use your Providers Card.</Trans>
        {replacement ? (
          <>
            {' '}
            <Trans>Your old card no longer works.</Trans>
          </>
        ) : null}
      </p>
      <p>
        <Trans>To use it at ATMs and for some purchases, set a PIN for it.</Trans>
      </p>
      <p className="screen-links">
        <Link to="/reset-pin/{-$step}" params={{ step: undefined }} search={{ cardId, returnTo: '/home' }} className="button">
          <Trans>Set your PIN</Trans>
        </Link>
        <Link to="/home">
          <Trans>Go to home</Trans>
        </Link>
      </p>
    </>
  );
}

/** FAILURE: spec §8's words, and Activate goes back to the form (the reset). */
function Failure({ onReset }: { onReset: () => void }) {
  return (
    <>
      <ResultHeading id={titleId} title={failureTitle} />
      <p role="alert">
        <Trans>Sorry, we weren't able to activate your Providers Card. Tap Activate to go back and try again.</Trans>
      </p>
      <button type="button" className="button" onClick={onReset}>
        <Trans>Activate</Trans>
      </button>
    </>
  );
}

/** No card awaits activation (already activated, perhaps on another phone). */
function NothingToActivate() {
  return (
    <>
      <ResultHeading id={titleId} title={nothingToActivateTitle} />
      <p>
        <Trans>There's no card waiting to be activated. If you've already activated it, it's ready to use.</Trans>
      </p>
      <CardFlowLinks />
    </>
  );
}
