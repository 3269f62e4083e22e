/**
 * How a card is said on the cards screens: its name with the masked number (only the last 4 digits,
 * "•••• 1234"), a sentence more about its status (src/shared/cards says the status) and, for a card
 * on its way, the delivery window.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { Card, CardDelivery } from '../../../../contract/cards/types.ts';
import { formatDate } from '../../../shared/format/date.ts';
import type { Locale } from '../../../../contract/shared/locale.ts';

/** "•••• 1234", read out as "ending in 1234". */
export function CardNumber({ lastFour }: { lastFour: string }) {
  const { t } = useLingui();
  return (
    <span className="card-number">
      <span aria-hidden="true" className="nowrap">
        •••• {lastFour}
      </span>
      <span className="visually-hidden">{t`ending in ${lastFour}`}</span>
    </span>
  );
}

/** "Virtual card •••• 1234", "Physical card •••• 5678"; a card on its way has no number to show yet. */
export function CardName({ card }: { card: Card }) {
  const kind = card.type === 'VIRTUAL' ? <Trans>Virtual card</Trans> : card.replacesCardId ? <Trans>Replacement card</Trans> : <Trans>Physical card</Trans>;
  return (
    <>
      {kind}
      {card.lastFour ? (
        <>
          {' '}
          <CardNumber lastFour={card.lastFour} />
        </>
      ) : null}
    </>
  );
}

/**
 * One sentence more about the status: what it means for the cardholder now, or null. A locked card
 * being replaced is declined now, so the lock is what it says (not that it keeps working).
 */
export function cardStatusDetail(card: Card, locale: Locale): ReactNode {
  if (card.status === 'LOST' || card.status === 'STOLEN') {
    return <Trans>Blocked for all purchases and ATM withdrawals.</Trans>;
  }
  if (card.delivery && card.isPending) return <DeliveryWindow delivery={card.delivery} locale={locale} />;
  if (card.isActive && card.frozen) return <Trans>Purchases and ATM withdrawals are declined until you unlock it.</Trans>;
  if (card.replacedByCardId && card.isActive) return <Trans>It keeps working until your new card ships.</Trans>;
  return null;
}

/** "Shipped Dec 1, 2026. Arrives between Dec 8, 2026 and Dec 15, 2026." */
export function DeliveryWindow({ delivery, locale }: { delivery: CardDelivery; locale: Locale }) {
  if (delivery.deliveredOn) {
    const delivered = formatDate(delivery.deliveredOn, locale, 'sentence');
    return <Trans>Delivered {delivered}.</Trans>;
  }
  const earliest = formatDate(delivery.earliest, locale, 'sentence');
  const latest = formatDate(delivery.latest, locale, 'sentence');
  if (delivery.shippedOn) {
    const shipped = formatDate(delivery.shippedOn, locale, 'sentence');
    return (
      <Trans>
        Shipped {shipped}. Arrives between {earliest} and {latest}.
      </Trans>
    );
  }
  return (
    <Trans>
      Arrives between {earliest} and {latest}.
    </Trans>
  );
}
