/**
 * The money confirmation's view (machines/shared/moneyConfirmation.ts): review (what is bought, the
 * amount, the balance now and after), then confirm, while the call is under way, and why the flow is
 * back (not enough money, a balance that could not be checked, a refusal, no answer). Each flow gives
 * its own words and renders its own receipt with `MoneyLines`. A failure is blamed on the connection only
 * when the phone has none or the last call got no answer (useConnectionSuspect, as RetryNotice).
 */
import { Trans } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { moneyConfirmationShows } from '../../../machines/shared/moneyConfirmation.ts';
import { ActionButton } from '../components/ActionButton.tsx';
import { Amount } from '../components/Amount.tsx';
import { RetryNotice, useConnectionSuspect } from '../components/RetryNotice.tsx';
import { useHeadingFocus } from '../components/useHeadingFocus.ts';
import { formatDollars } from '../format/money.ts';
import '../components/detailList.css';
import './moneyConfirmation.css';

/** A fresh Idempotency-Key for a confirmation (the chart keeps the first one of an attempt). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One row of amounts: a label and an amount in tabular numerals. */
type MoneyLine = { label: ReactNode; cents: number; emphasis?: boolean };

/** Amounts as a description list (the review's fee and balances; a receipt's). */
export function MoneyLines({ lines }: { lines: MoneyLine[] }) {
  return (
    <dl className="detail-list">
      {lines.map((line, index) => (
        <div key={index} className={line.emphasis ? 'money-line-total' : undefined}>
          <dt>{line.label}</dt>
          <dd className="amount">
            <Amount cents={line.cents} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

type MoneyConfirmationStepProps = {
  /** The heading's id (the screen is labelled by it). */
  titleId: string;
  shows: ReturnType<typeof moneyConfirmationShows>;
  amountCents: number;
  balanceCents: number;
  /** What the amount is for, as its row's label ("Card fee"). */
  amountLabel: ReactNode;
  reviewTitle: ReactNode;
  /** The flow's explanation above the amounts (what is bought, when it arrives). */
  review: ReactNode;
  confirmTitle: ReactNode;
  /** What confirming does, with the amount ("We'll take $5.00 from your balance …"). */
  confirmText: ReactNode;
  payButton: ReactNode;
  busyButton: ReactNode;
  /** The flow's words for a refusal (the chart keeps its reason). */
  refusal: ReactNode;
  /** Continue; also Try again after the balance could not be checked, which reads it again. */
  onContinue: () => void;
  onConfirm: (idempotencyKey: string) => void;
  onBack: () => void;
};

/** Review or confirm, whichever the chart is at. */
export function MoneyConfirmationStep(props: MoneyConfirmationStepProps) {
  return props.shows.confirm ? <Confirm key="confirm" {...props} /> : <Review key="review" {...props} />;
}

function Review({ titleId, shows, amountCents, balanceCents, amountLabel, reviewTitle, review, onContinue }: MoneyConfirmationStepProps) {
  const heading = useHeadingFocus();
  const amount = formatDollars(amountCents);
  return (
    <>
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        {reviewTitle}
      </h1>
      {review}
      <MoneyLines
        lines={
          // The balance could not be checked: the one loaded earlier is not said as the balance now, nor
          // what it would leave (or lack).
          shows.balanceUnchecked
            ? [{ label: amountLabel, cents: amountCents }]
            : [
                { label: amountLabel, cents: amountCents },
                { label: <Trans>Your balance now</Trans>, cents: balanceCents },
                // A prepaid balance cannot go below zero: short, what is missing is said, not a balance of -$5.00.
                balanceCents < amountCents
                  ? { label: <Trans>Amount still needed</Trans>, cents: amountCents - balanceCents, emphasis: true }
                  : { label: <Trans>Your balance after</Trans>, cents: balanceCents - amountCents, emphasis: true },
              ]
        }
      />
      {shows.notEnoughMoney ? (
        <div className="notice notice-problem" role="alert">
          <p className="notice-title">
            <Trans>Not enough money in your account</Trans>
          </p>
          <p>
            <Trans>Your balance doesn't cover the {amount} fee, so nothing was charged. Add money to your account, then try again.</Trans>
          </p>
          <p>
            <Link to="/add-money">
              <Trans>Add money</Trans>
            </Link>
          </p>
        </div>
      ) : null}
      {shows.balanceUnchecked ? (
        // Its Try again reads the balance again (in place of Continue: one button, not two).
        <RetryNotice advise focusOnRetry={heading} onRetry={onContinue}>
          <Trans>We couldn't check your balance, so nothing was charged.</Trans>
        </RetryNotice>
      ) : (
        // Busy while a balance that looks short is read again.
        <ActionButton unavailable={shows.busy} onPress={onContinue}>
          {shows.busy ? <Trans>Checking your balance…</Trans> : <Trans>Continue</Trans>}
        </ActionButton>
      )}
    </>
  );
}

function Confirm({ titleId, shows, confirmTitle, confirmText, payButton, busyButton, refusal, onConfirm, onBack }: MoneyConfirmationStepProps) {
  const heading = useHeadingFocus();
  // No usable answer: the connection is blamed only when the phone has none or no answer came at all;
  // a gateway's error page while online is the other end's failure (docs/decisions.md).
  const connectionSuspect = useConnectionSuspect();
  return (
    <>
      <h1 id={titleId} ref={heading} tabIndex={-1}>
        {confirmTitle}
      </h1>
      <p>{confirmText}</p>
      {shows.failed ? (
        <div className="notice notice-problem" role="alert">
          <p>
            {shows.unexpected || !connectionSuspect ? (
              <Trans>There was an unexpected error. Please try again: if your first try went through, you won't be charged twice.</Trans>
            ) : (
              <Trans>We couldn't reach Providers to finish this. Check your connection and try again: if your first try went through, you won't be charged twice.</Trans>
            )}
          </p>
        </div>
      ) : null}
      {shows.refused ? (
        <div className="notice notice-problem" role="alert">
          <p>{refusal}</p>
        </div>
      ) : null}
      <div className="money-actions" aria-busy={shows.busy}>
        <ActionButton unavailable={shows.busy} onPress={() => onConfirm(newIdempotencyKey())}>
          {shows.busy ? busyButton : shows.failed ? <Trans>Try again</Trans> : payButton}
        </ActionButton>
        <ActionButton secondary unavailable={shows.busy} onPress={onBack}>
          <Trans>Back</Trans>
        </ActionButton>
      </div>
    </>
  );
}
