/** A transaction the home tests show among the recent activity (GET /home's shape). */
import type { Transaction } from '../../contract/activity/types.ts';

/** A settled purchase: "Purchase at Save Mart", -$45.12. */
export const saveMartPurchase: Transaction = {
  id: 't1',
  amount: -4512,
  timestamp: '2026-11-20T15:00:00Z',
  kind: 'purchase',
  status: 'posted',
  counterparty: 'Save Mart',
  location: 'Fresno, CA',
  heldUntil: null,
};
