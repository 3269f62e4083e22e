/**
 * When a physical card should arrive (spec §9: 10 to 15 business days, US federal holidays excluded),
 * as a date range: the window the card API answered for a card ordered, or, before ordering, the one
 * an order placed today would get (contract/shared/businessDays.ts, the server's own count); and the
 * address it is mailed to.
 */
import { Trans } from '@lingui/react/macro';
import type { CardDelivery } from '../../../contract/cards/types.ts';
import type { Address } from '../../../contract/shared/address.ts';
import { cardDeliveryWindow, usCalendarDay } from '../../../contract/shared/businessDays.ts';
import { formatDate } from '../../shared/format/date.ts';
import { formatDollars } from '../../shared/format/money.ts';
import type { Locale } from '../../../contract/shared/locale.ts';

type Window = Pick<CardDelivery, 'earliest' | 'latest'>;

/** The window of a card ordered today. */
export const deliveryWindowIfOrderedToday = (): Window => cardDeliveryWindow(usCalendarDay(new Date()));

/** "It should arrive between Dec 8, 2026 and Dec 15, 2026." */
export function ArrivalWindow({ window, locale }: { window: Window; locale: Locale }) {
  const earliest = formatDate(window.earliest, locale, 'sentence');
  const latest = formatDate(window.latest, locale, 'sentence');
  return (
    <Trans>
      It should arrive between {earliest} and {latest}.
    </Trans>
  );
}

/** A card just ordered: its window when the card API answered one, else the usual time. */
export function ArrivalOfOrdered({ window, locale }: { window: Window | null | undefined; locale: Locale }) {
  return window ? <ArrivalWindow window={window} locale={locale} /> : <Trans>It arrives in 10 to 15 business days.</Trans>;
}

/** Before ordering: "If you order today, it should arrive between … and … (10 to 15 business days)." */
export function ArrivalIfOrderedToday({ locale }: { locale: Locale }) {
  const window = deliveryWindowIfOrderedToday();
  const earliest = formatDate(window.earliest, locale, 'sentence');
  const latest = formatDate(window.latest, locale, 'sentence');
  return (
    <Trans>
      It arrives in 10 to 15 business days: if you order today, between {earliest} and {latest}.
    </Trans>
  );
}

/**
 * What the card on its way cost, for a cardholder who comes back to it (after a reload that lost the
 * order's answer, say) and cannot tell from "already on its way" whether the fee was taken.
 */
export function FeeTaken({ delivery }: { delivery: Pick<CardDelivery, 'feeCents'> }) {
  const fee = formatDollars(delivery.feeCents);
  return delivery.feeCents > 0 ? (
    <Trans>We took {fee} from your balance for it when it was ordered.</Trans>
  ) : (
    <Trans>This card is free: nothing was taken from your balance for it.</Trans>
  );
}

/** The address on file, as an envelope shows it. */
export function MailingAddress({ address }: { address: Address }) {
  return (
    <address className="card-address">
      <span>{address.street1}</span>
      {address.street2 ? <span>{address.street2}</span> : null}
      <span>
        {address.city}, {address.state} {address.zip}
      </span>
    </address>
  );
}
