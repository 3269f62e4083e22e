/**
 * The auth modal (spec §4 auth): the unlock code, or a sign-in, over the screen whose call answered
 * REFRESH_REQUIRED or SIGN_IN_REQUIRED. The screen stays mounted underneath, so what the user typed
 * stays; the session chart resumes it afterwards. It cannot be dismissed: the way out is to
 * authenticate, or to follow one of its links (which gives the interrupted work up).
 */
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, type RefObject } from 'react';
import { useServices } from '../../../app/services.tsx';
import { BackToBenefits } from '../../../shared/components/BackToBenefits.tsx';
import { LanguageSwitch } from '../../../shared/components/LanguageSwitch.tsx';
import { Spinner } from '../../../shared/components/Spinner.tsx';
import { useModalDialog } from '../../../shared/components/useModalDialog.ts';
import { authModalTitleId } from './authModalTitle.ts';

// The same chunks as the /unlock and /signin routes, loaded only when the modal first opens.
const UnlockView = lazy(() => import('../unlock/UnlockView.tsx').then((module) => ({ default: module.UnlockView })));
const SignInView = lazy(() => import('../signIn/SignInView.tsx').then((module) => ({ default: module.SignInView })));

export function AuthModal() {
  const { session } = useServices();
  const open = useSelector(session, (s) => s.hasTag('authModalOpen'));
  const unlocking = useSelector(session, (s) => s.hasTag('locked'));
  const dialog = useModalDialog(open);
  return (
    <dialog ref={dialog} className="modal auth-modal" aria-labelledby={authModalTitleId} onCancel={(event) => event.preventDefault()}>
      {open ? (
        <Suspense fallback={<Spinner />}>
          {/* The header is behind the modal: its way back to the benefits app and the language stay at hand. */}
          <div className="auth-modal-bar">
            <BackToBenefits />
            <LanguageSwitch />
          </div>
          {unlocking ? <UnlockView inModal /> : <SignInView inModal />}
          <FocusFirstField key={String(unlocking)} dialog={dialog} />
        </Suspense>
      ) : null}
    </dialog>
  );
}

/** The views arrive after the dialog opened (so it focused itself): focus moves to their first field. */
function FocusFirstField({ dialog }: { dialog: RefObject<HTMLDialogElement | null> }) {
  useEffect(() => dialog.current?.querySelector<HTMLInputElement>('input')?.focus(), [dialog]);
  return null;
}
