/** Pieces the card flows (order, activate, replace) share: loading the account, and the way out. */
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { RetryNotice } from '../../shared/components/RetryNotice.tsx';
import { Skeleton } from '../../shared/components/Skeleton.tsx';

/** The flow's title over a skeleton while the account loads, or over a retry when it could not. */
export function AccountLoad({ titleId, title, failed, onRetry }: { titleId: string; title: ReactNode; failed: boolean; onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <>
      <h1 id={titleId} tabIndex={-1}>
        {title}
      </h1>
      {failed ? (
        <>
          <RetryNotice advise onRetry={onRetry}>
            <Trans>We couldn't load your account.</Trans>
          </RetryNotice>
          {/* A way out besides Try again: embedded, the phone's Back may leave for the companion app. */}
          <CardFlowLinks />
        </>
      ) : (
        <Skeleton label={t`Loading your account`} blocks={2} />
      )}
    </>
  );
}

/** Links out of a finished card flow: any link of its own first, then the cards and home. */
export function CardFlowLinks({ children }: { children?: ReactNode }) {
  return (
    <p className="screen-links">
      {children}
      <Link to="/manage-cards">
        <Trans>Manage cards</Trans>
      </Link>
      <Link to="/home">
        <Trans>Go to home</Trans>
      </Link>
    </p>
  );
}

/**
 * An order or a replacement just asked for was refused for the account's cards (one on its way, or one
 * in use): nothing was ordered or charged. Read after the heading, which has the focus: no live region
 * (one mounted with its text is not reliably heard).
 */
export function NothingOrdered() {
  return (
    <p>
      <Trans>We didn't order another card, and we didn't charge you for one.</Trans>
    </p>
  );
}
