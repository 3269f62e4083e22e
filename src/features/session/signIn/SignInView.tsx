import { Trans, useLingui } from '@lingui/react/macro';
import { getRouteApi, Link, useRouter, useRouterState } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { fromPromise } from 'xstate';
import { signInMachine } from '../../../../machines/session/signIn.ts';
import { useServices } from '../../../app/services.tsx';
import { PasswordField } from '../../../shared/components/PasswordField.tsx';
import { TextField } from '../../../shared/components/TextField.tsx';
import { failureMessage, validationMessages } from '../../../shared/messages.ts';
import { thenSignInParam, type HandedOver } from '../resetPassword/thenSignIn.ts';
import { authModalTitleId, viewHeading } from '../authModal/authModalTitle.ts';
import { continueToApp, goToResetUnlockCode, storeSession } from '../../../shared/sessionEffects.ts';
import { WaitToTryAgain } from '../../../shared/waitNotices.tsx';
import { SubmitButton } from '../../../shared/components/SubmitButton.tsx';
import type * as CodeStepFile from './SignInCodeForm.tsx';
import type { FormProps } from './SignInCodeForm.tsx';

const signInRoute = getRouteApi('/signin/{-$step}');

type CodeStep = typeof CodeStepFile;
/** The code step's file, once loaded (it stays loaded for every later sign-in of this page). */
let codeStep: CodeStep | null = null;
const loadCodeStep = () => import('./SignInCodeForm.tsx').then((loaded) => (codeStep = loaded));

/** How long a code asked for waits for its form's file before the screen says it could not be opened. */
const codeStepWaitMs = 20_000;

/**
 * The code step's file: asked for from the first thing typed, and as the credentials are sent (the
 * server's answer may ask for a code), so it is usually here before a code is asked for (`needed`). A
 * download that failed before then is tried once more when a code is asked for (the signal may be back);
 * `failed` only if that fails too: a sign-in that needs no code loses nothing by it. A download that
 * neither arrives nor fails (a stalled connection) is `failed` too once a code has waited
 * `codeStepWaitMs` for it, rather than "Signing in…" for ever; should it arrive later, the form shows.
 */
function useCodeStep(wanted: boolean, needed: boolean): { loaded: CodeStep | null; failed: boolean } {
  const [loaded, setLoaded] = useState(codeStep);
  // The last download that failed, and whether a code was asked for by then.
  const [failure, setFailure] = useState<{ whenNeeded: boolean } | null>(null);
  const [stalled, setStalled] = useState(false);
  useEffect(() => {
    if (loaded || !needed) return;
    const timer = setTimeout(() => setStalled(true), codeStepWaitMs);
    return () => clearTimeout(timer);
  }, [loaded, needed]);
  useEffect(() => {
    if (loaded || !(wanted || needed) || failure?.whenNeeded || (failure && !needed)) return;
    let current = true;
    loadCodeStep().then(
      (file) => current && setLoaded(file),
      () => current && setFailure({ whenNeeded: needed }),
    );
    return () => {
      current = false;
    };
  }, [wanted, needed, loaded, failure]);
  return { loaded, failed: failure?.whenNeeded === true || (stalled && needed) };
}

/**
 * Sign in with email and password, then a texted code when asked. On /signin it continues to the
 * remembered route or home; in the auth modal the session chart resumes the interrupted screen.
 */
export function SignInView({ inModal = false }: { inModal?: boolean }) {
  const { session, api } = useServices();
  const router = useRouter();
  // In the auth modal the /signin route is not matched: nothing is remembered there.
  const redirect = signInRoute.useSearch({ shouldThrow: false })?.redirect;
  const interrupted = useSelector(session, (s) => s.context.interruption?.location);
  const signIn = useActorRef(
    signInMachine.provide({
      actors: { signIn: fromPromise(({ input }) => api.signIn(input)) },
      actions: {
        storeSession: (_, answer) => storeSession(session, answer ?? {}),
        continueToApp: () => {
          if (!inModal) continueToApp(router, redirect);
        },
        goToResetUnlockCode: () => goToResetUnlockCode(router, inModal ? interrupted : redirect),
      },
    }),
  );
  const state = useSelector(signIn, (s) => s);
  const inMfa = state.hasTag('askingForCode');
  const [typed, setTyped] = useState(false);
  const codeStep = useCodeStep(typed || state.hasTag('busy'), inMfa);
  const Heading = viewHeading(inModal);
  if (inMfa && codeStep.loaded) return <codeStep.loaded.CodeForm state={state} send={signIn.send} Heading={Heading} inModal={inModal} />;
  if (inMfa && codeStep.failed) return <CodeStepFailed Heading={Heading} inModal={inModal} />;
  // Asked for a code before its form is here, the credentials form stays as it was sent, busy.
  return <CredentialsForm state={state} send={signIn.send} Heading={Heading} inModal={inModal} onTyped={typed ? undefined : () => setTyped(true)} />;
}

/**
 * A code was asked for and the code step's file could not be downloaded (a weak signal, or a page older
 * than the app's files on the server): said in place with ErrorView's words, also in the auth modal, so
 * nothing is lost until the cardholder chooses Try again. A browser keeps a failed import failed for the
 * page's life, so Try again loads the page again (a screen under the modal is then opened anew). The
 * tab keeps sign-in's title.
 */
function CodeStepFailed({ Heading, inModal }: Pick<FormProps, 'Heading' | 'inModal'>) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const headingId = inModal ? authModalTitleId : 'signin-code-title';
  return (
    <section className="screen" aria-labelledby={headingId}>
      <Heading id={headingId} ref={heading} tabIndex={-1}>
        <Trans>Something went wrong.</Trans>
      </Heading>
      <p>
        <Trans>We couldn't open this screen. Check your connection and try again.</Trans>
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        <Trans>Try again</Trans>
      </button>
    </section>
  );
}

const emailFieldId = 'email';
const passwordFieldId = 'password';
const hasFocus = (id: string) => document.activeElement?.id === id;
/**
 * The email typed before "Forgot your password?" and the history entry it was typed in: the browser's
 * Back to that entry shows it again (WCAG 2.2 SC 3.3.7). In memory, until the form is sent. (Written to
 * the history entry itself, the router took the write for a navigation and loaded sign-in again.)
 */
let typedBeforeReset: { email?: string; entry?: string } = {};

/** `onTyped`: the first thing typed (the code step's file is then asked for). */
function CredentialsForm({ state, send, Heading, inModal, onTyped }: FormProps & { onTyped?: () => void }) {
  const { session, host } = useServices();
  const { t, i18n } = useLingui();
  const authReason = useSelector(session, (s) => s.context.authReason);
  const handedOver = useRouterState({ select: (s) => s.location.state as HandedOver & { key?: string } });
  const sending = state.hasTag('busy');
  // Also while the code step's form loads after a code was asked for (useCodeStep); its links stay usable.
  const submitting = sending || state.hasTag('askingForCode');
  const paused = state.hasTag('waiting');
  const { fieldErrors, retryAt } = state.context;
  const rejected = state.hasTag('rejected');
  const failed = state.hasTag('failed');
  const invalid = state.hasTag('invalid');
  // The refusal's three messages (incorrect, paused, resumed): each a new element, focused as it comes.
  const refusal = paused ? 1 : state.hasTag('resumed') ? 2 : 0;
  const formRef = useRef<HTMLFormElement>(null);
  const problemRef = useRef<HTMLDivElement & HTMLParagraphElement>(null);
  const typedEmail = () => formRef.current?.querySelector<HTMLInputElement>('[name="email"]')?.value;
  // After a failure the focus goes from the Sign in button to the first field in error, else to the
  // message, so a screen reader starts there and says it, once: the message is no alert, which said it
  // again. Each try's message is a new one, so the same words after another try are said again.
  useEffect(() => {
    if (invalid) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    // The pause's end comes by itself: it takes the focus from its message only, never from a field being typed in.
    else if ((rejected || failed) && (refusal < 2 || document.activeElement === document.body)) problemRef.current?.focus();
  }, [invalid, rejected, failed, fieldErrors, refusal]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    typedBeforeReset = {};
    const form = new FormData(event.currentTarget);
    send({ type: 'user.submit', email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
  }

  const headingId = inModal ? authModalTitleId : 'signin-title';
  return (
    <section className="screen" aria-labelledby={headingId}>
      {/* Focusable, as every screen's heading: the app shell gives it the focus on arrival. */}
      <Heading id={headingId} tabIndex={-1}>
        <Trans>Sign in</Trans>
      </Heading>
      {handedOver.passwordChanged ? (
        <p className="notice" role="status">
          <Trans>Your password has been changed. Please sign in with your new password.</Trans>
        </p>
      ) : authReason === 'signInAgain' ? (
        <p className="notice" role="status">
          <Trans>For your security, please sign in again.</Trans>
        </p>
      ) : authReason === 'unlockCodeLocked' ? (
        <p className="notice" role="status">
          <Trans>You entered a wrong unlock code too many times. Please sign in with your password, then choose a new unlock code.</Trans>
        </p>
      ) : null}
      {/* Embedded, why the companion app did not sign the cardholder in, with Try again (startEmbedded.ts). */}
      {host.signInNotice && !inModal ? <host.signInNotice /> : null}
      {/* Sent with Enter from a field, the focus is there already and moving it says nothing: that
          field's error is an alert as it appears (announce). Sent with the button, the focus moves
          to the field, which says its error once. useFocusOnProblem does this for the other forms;
          here its module would add half a kilobyte to sign-in's first load. */}
      <form ref={formRef} className="form" onSubmit={submit} onInput={onTyped} noValidate aria-busy={submitting}>
        <TextField
          announce={Boolean(fieldErrors.email) && hasFocus(emailFieldId)}
          id={emailFieldId}
          name="email"
          type="email"
          label={t`Email`}
          autoComplete="email"
          inputMode="email"
          defaultValue={state.context.email || handedOver.email || (typedBeforeReset.entry === handedOver.key ? typedBeforeReset.email : '')}
          error={fieldErrors.email ? i18n._(validationMessages[fieldErrors.email]) : undefined}
        />
        <PasswordField
          announce={Boolean(fieldErrors.password) && hasFocus(passwordFieldId)}
          id={passwordFieldId}
          name="password"
          label={t`Password`}
          autoComplete="current-password"
          error={fieldErrors.password ? i18n._(validationMessages[fieldErrors.password]) : undefined}
        />
        {rejected ? (
          <div key={refusal} ref={problemRef} className="form-error" tabIndex={-1}>
            {/* Paused, the server did not compare the password (it may be right): it is not called incorrect. */}
            {paused ? (
              <>
                <p>
                  <Trans>Too many tries</Trans>
                </p>
                <p>
                  <WaitToTryAgain retryAt={retryAt} />
                </p>
              </>
            ) : refusal === 2 ? (
              <p>
                <Trans>You can try to sign in again now.</Trans>
              </p>
            ) : (
              <p>
                <Trans>Sorry, the email address or password you entered is incorrect. Please try again.</Trans>
              </p>
            )}
          </div>
        ) : null}
        {failed ? (
          <p ref={problemRef} className="form-error" tabIndex={-1}>
            {i18n._(failureMessage())}
          </p>
        ) : null}
        <SubmitButton unavailable={submitting || paused}>
          {submitting ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </SubmitButton>
      </form>
      {/* Inert while the call runs: the message above goes as it starts, and a double tap's second would land on a link. */}
      <p className="screen-links" inert={sending}>
        {host.embedded && !inModal ? (
          // Opening an account is offered only inside the companion app (spec §2).
          <Link to="/register/{-$step}" params={{ step: undefined }}>
            <Trans>New to Providers? Open an account</Trans>
          </Link>
        ) : null}
        <Link
          to="/reset-password/{-$step}"
          params={{ step: undefined }}
          search={thenSignInParam}
          state={(previous) => ({ ...previous, email: typedEmail() }) satisfies HandedOver}
          onClick={() => (typedBeforeReset = { email: typedEmail(), entry: handedOver.key })}
        >
          <Trans>Forgot your password?</Trans>
        </Link>
        <Link to="/customer-support">
          <Trans>Contact support</Trans>
        </Link>
      </p>
    </section>
  );
}
