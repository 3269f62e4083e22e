import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useRouter, useSearch } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { signInMachine } from '../../../machines/signIn.ts';
import { useServices } from '../../app/services.tsx';
import { TextField } from '../../components/TextField.tsx';
import { unexpectedErrorMessage, validationMessages } from '../messages.ts';
import { continueToApp, storeSession } from '../sessionEffects.ts';

/** Sign in with email and password; continues to the remembered route or home. */
export function SignInView() {
  const { session, api, host } = useServices();
  const router = useRouter();
  const { redirect } = useSearch({ strict: false }) as { redirect?: string };
  const { t, i18n } = useLingui();
  const authReason = useSelector(session, (s) => s.context.authReason);
  const signIn = useActorRef(
    signInMachine.provide({
      actors: { signIn: fromPromise(({ input }) => api.signIn(input)) },
      actions: {
        storeSession: (_, answer) => storeSession(session, answer),
        continueToApp: () => continueToApp(router, redirect),
      },
    }),
  );
  const state = useSelector(signIn, (s) => s);
  const submitting = state.matches('submitting') || state.matches('signedIn');
  const { fieldErrors } = state.context;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    signIn.send({ type: 'user.submit', email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
  }

  return (
    <section className="screen" aria-labelledby="signin-title">
      <h1 id="signin-title">
        <Trans>Sign in</Trans>
      </h1>
      {authReason === 'signInAgain' ? (
        <p className="notice" role="status">
          <Trans>For your security, please sign in again.</Trans>
        </p>
      ) : null}
      <form className="form" onSubmit={submit} noValidate aria-busy={submitting}>
        <TextField
          id="email"
          name="email"
          type="email"
          label={t`Email`}
          autoComplete="email"
          inputMode="email"
          defaultValue={state.context.email}
          error={fieldErrors.email ? i18n._(validationMessages[fieldErrors.email]) : undefined}
        />
        <TextField
          id="password"
          name="password"
          type="password"
          label={t`Password`}
          autoComplete="current-password"
          error={fieldErrors.password ? i18n._(validationMessages[fieldErrors.password]) : undefined}
        />
        {state.matches({ editing: 'rejected' }) ? (
          <p className="form-error" role="alert">
            <Trans>Sorry, the email address or password you entered is incorrect. Please try again.</Trans>
          </p>
        ) : null}
        {state.matches({ editing: 'failed' }) ? (
          <p className="form-error" role="alert">
            {i18n._(unexpectedErrorMessage)}
          </p>
        ) : null}
        <button type="submit" className="button" disabled={submitting}>
          {submitting ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </button>
      </form>
      <p className="screen-links">
        {host.embedded ? (
          // Opening an account is offered only inside the companion app (spec §2).
          <Link to="/register/{-$step}" params={{ step: undefined }}>
            <Trans>New to Providers? Open an account</Trans>
          </Link>
        ) : null}
        <Link to="/reset-password/{-$step}" params={{ step: undefined }}>
          <Trans>Forgot your password?</Trans>
        </Link>
        <Link to="/customer-support">
          <Trans>Contact support</Trans>
        </Link>
      </p>
    </section>
  );
}
