/**
 * Embedded, on sign-in: the companion app's sign-in at start-up got no answer (machines/host/host.ts
 * `signInProblem: 'failed'`). A cardholder who opened the account in the companion app has no
 * password, so the form below cannot help them: Try again signs in through the companion app once
 * more, on this screen (a reload offline would lose the app: embedded, it has no service worker).
 * Loaded with the embedded start-up (startEmbedded.ts), never standalone.
 */
import { Trans } from '@lingui/react/macro';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useServices } from '../../app/services.tsx';
import { continueToApp, storeSession } from '../sessionEffects.ts';
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
  const failed = useSelector(actor, (s) => s.context.signInProblem === 'failed');
  const retrying = useSelector(actor, (s) => s.matches('signingIn'));
  const tokens = useSelector(actor, (s) => s.context.tokens);
  const signedIn = useSelector(session, (s) => s.context.accessToken !== null);
  // Only tokens from a retry asked here open the session: those of the start-up belong to a session that has ended since.
  const retried = useRef(false);
  useEffect(() => {
    if (!retried.current || !tokens) return;
    retried.current = false;
    storeSession(session, tokens);
    continueToApp(router, redirect);
  }, [tokens, session, router, redirect]);
  // Signed in another way (the form): the start-up's problem is over, and not said again after a sign-out.
  useEffect(() => {
    if (signedIn) actor.send({ type: 'session.signedIn' });
  }, [signedIn, actor]);

  if (!failed && !retrying) return null;
  return (
    <div className="notice" role="alert">
      <p>
        <Trans>We couldn't sign you in automatically.</Trans>
      </p>
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
