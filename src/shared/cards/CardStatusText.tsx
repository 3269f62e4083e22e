/** A card's status in a word or two (spec §4 card life), said alike by home and the cards screens. */
import { Trans } from '@lingui/react/macro';
import type { Card } from '../../../contract/cards/types.ts';

/** Where the card is in its life: on its way, active, locked, lost, stolen, replaced. */
export function CardStatusText({ card }: { card: Card }) {
  if (card.status === 'LOST') return <Trans>Reported lost</Trans>;
  if (card.status === 'STOLEN') return <Trans>Reported stolen</Trans>;
  // A pending card is always SHIPPED (a CHECK), and the card API writes SHIPPED only on a pending one.
  if (card.isPending) return <Trans>On its way</Trans>;
  // Every card stopped today is a replaced one; Not active keeps any other stop from reading Active.
  if (!card.isActive) return card.replacedByCardId ? <Trans>Replaced</Trans> : <Trans>Not active</Trans>;
  if (card.frozen) return <Trans>Locked</Trans>;
  return <Trans>Active</Trans>;
}
