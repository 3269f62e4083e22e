import { Trans, useLingui } from '@lingui/react/macro';
import { Outlet } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { SnackbarMessage } from '../../machines/session/session.ts';
import { useServices } from './services.tsx';
import { useScreenTitle } from './useScreenTitle.ts';
import { AuthModal } from '../features/session/authModal/AuthModal.tsx';
import { BackToBenefits } from '../shared/components/BackToBenefits.tsx';
import { ErrorModal } from '../shared/components/ErrorModal.tsx';
import { LanguageSwitch } from '../shared/components/LanguageSwitch.tsx';
import { Snackbar } from '../shared/components/Snackbar.tsx';

/** The frame around every screen: brand, language, sign out, and the shared modal and snackbar. */
export function AppShell() {
  const { session, host } = useServices();
  const { t } = useLingui();
  const signedIn = useSelector(session, (s) => s.hasTag('signedIn'));
  const errorModalOpen = useSelector(session, (s) => s.hasTag('errorModalOpen'));
  const snackbar = useSelector(session, (s) => (s.hasTag('snackbarShown') ? s.context.snackbarMessage : null));
  const screensGeneration = useSelector(session, (s) => s.context.screensGeneration);
  useScreenTitle();

  return (
    <div className="app">
      {/* Inside the companion app, under its own header: one slim row, so the screen keeps the room. */}
      <header className={host.embedded ? 'app-header app-header-compact' : 'app-header'}>
        {host.returnToHostRoute ? (
          <BackToBenefits />
        ) : (
          // Inside the companion app its own frame carries the brand; the way back takes the space.
          <span className="brand">Providers</span>
        )}
        <nav className="header-actions" aria-label={t`Account and language`}>
          <LanguageSwitch />
          {signedIn ? (
            <button type="button" className="link-button" onClick={() => session.send({ type: 'user.signOut' })}>
              <Trans>Sign out</Trans>
            </button>
          ) : null}
        </nav>
      </header>
      {/* A new generation when another account signs in over interrupted work: its screen starts over. */}
      <main className="app-main" key={screensGeneration}>
        <Outlet />
      </main>
      <Snackbar message={snackbar ? <SnackbarText message={snackbar} /> : null} onDismiss={() => session.send({ type: 'user.dismissSnackbar' })} />
      <AuthModal />
      <ErrorModal open={errorModalOpen} onClose={() => session.send({ type: 'user.closeErrorModal' })} />
    </div>
  );
}

function SnackbarText({ message }: { message: SnackbarMessage }) {
  if (message === 'accountNumberCopied') return <Trans>Account number copied.</Trans>;
  if (message === 'copyFailed') return <Trans>We couldn't copy the account number.</Trans>;
  if (message === 'pinSet') return <Trans>Your new PIN is set.</Trans>;
  return <Trans>You have signed out.</Trans>;
}
