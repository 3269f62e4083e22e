import { useLingui } from '@lingui/react/macro';
import { formatDollars, formatSignedDollars } from '../format/money.ts';

/**
 * An amount of money, seen as written ("$18.50", "-$5.00"; with `signed`, a credit's "+$480.00" too)
 * and heard with its sign in words ("minus $5.00", "plus $480.00"): at their default punctuation level
 * screen readers may drop a hyphen or a plus sign, and a purchase would then sound like a deposit.
 */
export function Amount({ cents, signed = false, className }: { cents: number; signed?: boolean; className?: string }) {
  const { t } = useLingui();
  const seen = signed ? formatSignedDollars(cents) : formatDollars(cents);
  const magnitude = formatDollars(Math.abs(cents));
  const heard = cents < 0 ? t`minus ${magnitude}` : signed && cents > 0 ? t`plus ${magnitude}` : null;
  if (heard === null) return <span className={className}>{seen}</span>;
  return (
    <span className={className}>
      <span aria-hidden="true">{seen}</span>
      <span className="visually-hidden">{heard}</span>
    </span>
  );
}
