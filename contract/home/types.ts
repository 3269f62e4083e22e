/** The home screen's data (spec §3 account overview, §7 GET /home). Money is integer cents. */
import type { Transaction } from '../activity/types.ts';
import type { Card } from '../cards/types.ts';
import type { StatusAnswer } from '../shared/answers.ts';

export type AccountOverview = {
  /** The available balance in cents, derived from the ledger: what is left after holds. */
  balance: number;
  /** Cents held by purchases not yet settled (already taken out of `balance`). */
  onHold: number;
  cards: Card[];
  /** The most recent activity, newest first (holds first among equals: they are the newest). */
  transactions: Transaction[];
  prn: string;
  flags: { hasFunded: boolean; hasFundedAnyKind: boolean };
  ebtRewardOwed: number;
  ebtRewardsClaimedThisPeriod: number;
};

export type HomeAnswer = StatusAnswer & {
  accountOverview: AccountOverview;
  registrationWave: string | null;
  pendingCard: Card | null;
  virtualCard: { id: string } | null;
  prn: string;
  hasFundedAnyKind: boolean;
};
