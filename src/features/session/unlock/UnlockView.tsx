import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useRef, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { unlockMachine } from '../../../../machines/session/unlock.ts';
import { safeRedirect } from '../../../app/guards.ts';
import { useServices } from '../../../app/services.tsx';
import { UnlockCodeField } from '../../../shared/components/NewUnlockCodeFields.tsx';
import { useFocusOnProblem } from '../../../shared/components/useFocusOnProblem.ts';
import { failureMessage, validationMessages } from '../../../shared/messages.ts';
import { authModalTitleId, viewHeading } from '../authModal/authModalTitle.ts';
import { continueToApp, storeSession } from '../../../shared/sessionEffects.ts';
import { SubmitButton } from '../../../shared/components/SubmitButton.tsx';

const unlockRoute = getRouteApi('/unlock');

/**
 * Unlock with the 4-digit code when the session needs refreshing: on /unlock it returns to the
 * remembered route; in the auth modal the session chart resumes the interrupted screen.
 */
export function UnlockView({ inModal = false }: { inModal?: boolean }) {
  const { session, api } = useServices();
  const router = useRouter();
  // In the auth modal the /unlock route is not matched: nothing is remembered there.
  const redirect = unlockRoute.useSearch({ shouldThrow: false })?.redirect;
  const { t, i18n } = useLingui();
  const authReason = useSelector(session, (s) => s.context.authReason);
  const interrupted = useSelector(session, (s) => s.context.interruption?.location);
  // The reset (SSN, then a new code) comes back to where the cardholder was going.
  const remembered = safeRedirect(inModal ? interrupted : redirect);
  const forgotSearch = remembered ? { redirect: remembered } : {};
  const unlock = useActorRef(
    unlockMachine.provide({
      actors: {
        refreshTokens: fromPromise(({ input }) =>
          api.refreshTokens(session.getSnapshot().context.refreshToken, input.unlockCode),
        ),
      },
      actions: {
        storeSession: (_, answer) => storeSession(session, answer),
        continueToApp: () => {
          if (!inModal) continueToApp(router, redirect);
        },
        requireSignIn: (_, { unlockCodeLocked }) => session.send({ type: 'session.signInRequired', unlockCodeLocked }),
      },
    }),
  );
  const state = useSelector(unlock, (s) => s);
  const submitting = state.hasTag('busy');
  const { attemptsLeft, fieldError } = state.context;
  const formRef = useRef<HTMLFormElement>(null);
  const problemRef = useRef<HTMLParagraphElement>(null);
  const wrongCode = state.hasTag('wrongCode') && attemptsLeft !== null;
  // A wrong code is the field's problem (focused with it, to type again); a failure is the form's.
  const codeProblem = wrongCode ? (
    <>
      <Trans>This isn't the right code.</Trans>{' '}
      <Plural value={attemptsLeft} one="You have 1 more unlock attempt." other="You have # more unlock attempts." />
    </>
  ) : fieldError ? (
    i18n._(validationMessages[fieldError])
  ) : undefined;
  useFocusOnProblem(formRef, state.context, Boolean(codeProblem) || state.hasTag('failed'), problemRef);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    unlock.send({ type: 'user.submit', unlockCode: String(form.get('unlockCode') ?? '').replace(/\s/g, '') });
  }

  const Heading = viewHeading(inModal);
  const headingId = inModal ? authModalTitleId : 'unlock-title';
  return (
    <section className="screen" aria-labelledby={headingId}>
      {/* Focusable, as every screen's heading: the app shell gives it the focus on arrival. */}
      <Heading id={headingId} tabIndex={-1}>
        <Trans>Enter your unlock code</Trans>
      </Heading>
      {authReason === 'expired' ? (
        <p className="notice" role="status">
          <Trans>Your session has expired.</Trans>
        </p>
      ) : null}
      <form ref={formRef} className="form" onSubmit={submit} noValidate aria-busy={submitting}>
        <UnlockCodeField id="unlock-code" name="unlockCode" label={t`Unlock code`} error={codeProblem} />
        {state.hasTag('failed') ? (
          <p ref={problemRef} className="form-error" role="alert" tabIndex={-1}>
            {i18n._(failureMessage())}
          </p>
        ) : null}
        <SubmitButton unavailable={submitting}>
          {submitting ? <Trans>Unlocking…</Trans> : <Trans>Unlock</Trans>}
        </SubmitButton>
      </form>
      {/* Inert while the call runs: the message above goes as it starts, and a double tap's second would land on a link. */}
      <p className="screen-links" inert={submitting}>
        <Link to="/reset-unlock-code/{-$step}" params={{ step: undefined }} search={forgotSearch} replace>
          <Trans>Forgot your unlock code?</Trans>
        </Link>
        <button type="button" className="link-button" onClick={() => unlock.send({ type: 'user.useSignIn' })}>
          <Trans>Sign in with your email and password instead</Trans>
        </button>
      </p>
    </section>
  );
}
