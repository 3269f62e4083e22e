/**
 * Embedded, on sign-in: why the companion app's sign-in at start-up did not sign the cardholder in
 * (machines/host/host.ts `signInProblem`). A cardholder who opened the account in the companion app has
 * no password, so the form below cannot help them. No answer ('failed'): Try again signs in through
 * the companion app once more, on this screen (a reload offline would lose the app: embedded, it has
 * no service worker). Its token refused ('refused': expired, or none): the way out is opening the card
 * again from the companion app, which gives a new one. Loaded with the embedded start-up
 * (startEmbedded.ts, not when the companion user has no card account yet), never standalone.
 */
import { Trans } from '@lingui/react/macro';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useServices } from '../../app/services.tsx';
import { continueToApp, goToResetUnlockCode, storeSession } from '../sessionEffects.ts';
import type { HostActor } from './host.ts';

const signInRoute = getRouteApi('/signin/{-$step}');

export function CompanionSignInNotice() {
  const { host } = useServices();
  return host.actor ? <NoticeFor actor={host.actor} /> : null;
}

function NoticeFor({ actor }: { actor: HostActor }) {
  const { session } = useServices();
  const router = useRouter();
  const redirect = signInRoute.useSearch({ shouldThrow: false })?.redirect;
  const problem = useSelector(actor, (s) => s.context.signInProblem);
  const retrying = useSelector(actor, (s) => s.matches('signingIn'));
  const tokens = useSelector(actor, (s) => s.context.tokens);
  const signedIn = useSelector(session, (s) => s.context.accessToken !== null);
  // Only what a retry asked here answers decides: the start-up's tokens belong to a session that has ended since.
  const retried = useRef(false);
  useEffect(() => {
    if (!retried.current || retrying) return;
    if (tokens) {
      retried.current = false;
      storeSession(session, tokens);
      // Wrong unlock codes locked it: reset first, as after any sign-in.
      if (tokens.mustResetUnlockCode) goToResetUnlockCode(router, redirect);
      else continueToApp(router, redirect);
    } else if (problem === 'refused') {
      // The card API answered, so the network is back: the start-up decides again (no card account yet:
      // registration; a companion token refused: this form), as when the app opened.
      location.replace('/');
    }
  }, [retrying, tokens, problem, session, router, redirect]);
  // Signed in another way (the form): the start-up's problem is over, and not said again after a sign-out.
  useEffect(() => {
    if (signedIn) actor.send({ type: 'session.signedIn' });
  }, [signedIn, actor]);

  if (problem === 'refused' && !retrying) {
    return (
      <div className="notice">
        <p role="alert">
          <Trans>We couldn't sign you in through the benefits app. Please go back to the benefits app and open your card again.</Trans>
        </p>
        <p>
          <Trans>If you have set a password, you can also sign in with it below.</Trans>
        </p>
      </div>
    );
  }
  if (problem !== 'failed' && !retrying) return null;
  return (
    <div className="notice">
      {/* Emptied while signing in, so a retry that fails again says it again. */}
      <p role="alert">{retrying ? null : <Trans>We couldn't sign you in automatically.</Trans>}</p>
      <button
        type="button"
        className="button"
        aria-disabled={retrying}
        onClick={() => {
          if (retrying) return;
          retried.current = true;
          actor.send({ type: 'user.retrySignIn' });
        }}
      >
        {retrying ? <Trans>Signing in…</Trans> : <Trans>Try again</Trans>}
      </button>
    </div>
  );
}
