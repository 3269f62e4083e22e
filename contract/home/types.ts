/** The home screen's data (spec §3 account overview, §7 GET /home). Money is integer cents. */
import type { StatusAnswer } from '../shared/answers.ts';

export type CardType = 'VIRTUAL' | 'PHYSICAL';
export type CardStatus = 'ACTIVE' | 'LOST' | 'SHIPPED' | 'STOLEN';

export type Card = {
  id: string;
  type: CardType;
  status: CardStatus;
  frozen: boolean;
  isActive: boolean;
  isPending: boolean;
  lastFour: string;
};

export type Transaction = {
  id: string;
  /** Cents; positive is a credit. */
  amount: number;
  timestamp: string;
  description: string;
  location: string | null;
};

export type AccountOverview = {
  /** Cents, derived from the ledger. */
  balance: number;
  cards: Card[];
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
