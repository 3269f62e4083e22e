import { Trans, useLingui } from '@lingui/react/macro';
import { Outlet, useMatches } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { SnackbarMessage } from '../../machines/session/session.ts';
import { useServices } from './services.tsx';
import { useScreenTitle } from './useScreenTitle.ts';
import { AuthModal } from '../features/session/authModal/AuthModal.tsx';
import { BackToBenefits } from '../shared/components/BackToBenefits.tsx';
import { ErrorModal } from '../shared/components/ErrorModal.tsx';
import { focusIsNowhere } from '../shared/components/focusIsNowhere.ts';
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
  useFocusOnNewScreen();

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
      <Snackbar
        message={snackbar ? <SnackbarText message={snackbar} /> : null}
        onDismiss={() => session.send({ type: 'user.dismissSnackbar' })}
        onHold={(held) => session.send({ type: held ? 'user.holdSnackbar' : 'user.releaseSnackbar' })}
      />
      <AuthModal />
      <ErrorModal open={errorModalOpen} onClose={() => session.send({ type: 'user.closeErrorModal' })} />
    </div>
  );
}

/**
 * After a move to another screen the focus goes with the link or button pressed on the old one; the
 * new screen's heading takes it (WCAG 2.2 SC 2.4.3), so a screen reader says where the user now is
 * and Tab goes on from there. The old screen may still be up when this runs, and a screen's code may
 * come after its route (the activity screens): the heading takes it once the pressed control is gone
 * and the heading is drawn. Not on the first screen, and never from where a screen or the user put it
 * (a field, the row come back to, a header control); the page does not scroll for it.
 */
function useFocusOnNewScreen() {
  const pathname = useMatches({ select: (matches) => matches.at(-1)?.pathname });
  const shown = useRef(pathname);
  // Read while the old screen is still up: what had the focus when the move began.
  const pressed = useRef<Element | null>(null);
  if (pathname !== shown.current) pressed.current = document.activeElement;
  useEffect(() => {
    if (pathname === shown.current) return;
    shown.current = pathname;
    const main = document.querySelector('main')!;
    // Done once the pressed control has gone from the old screen and either the focus is somewhere or
    // the new screen's heading (every screen's h1 is focusable: tabIndex -1) is drawn and given it.
    const take = () => {
      const at = document.activeElement;
      // (A control removed with the old screen is in no page: `contains` is false for it.)
      if (at === pressed.current && main.contains(at)) return false;
      if (!focusIsNowhere()) return true;
      const heading = main.querySelector<HTMLElement>('h1');
      heading?.focus({ preventScroll: true });
      return !!heading;
    };
    if (take()) return;
    const drawn = new MutationObserver(() => take() && drawn.disconnect());
    drawn.observe(main, { childList: true, subtree: true });
    return () => drawn.disconnect();
  }, [pathname]);
}

function SnackbarText({ message }: { message: SnackbarMessage }) {
  if (message === 'accountNumberCopied') return <Trans>Account number copied.</Trans>;
  if (message === 'copyFailed') return <Trans>We couldn't copy the account number.</Trans>;
  if (message === 'pinSet') return <Trans>Your new PIN is set.</Trans>;
  return <Trans>You have signed out.</Trans>;
}
