/** Request and response shapes of the card API (spec §7). Money is integer cents. */
import type { StatusCode } from './statusCodes.ts';

export type StatusAnswer = { statusCode: StatusCode };

export type Credentials = { email: string; password: string };

export type SignInAnswer = StatusAnswer & {
  access?: string;
  refresh?: string;
  isInternal?: boolean;
};

export type RefreshTokensRequest = { unlockCode: string };

export type RefreshTokensAnswer = StatusAnswer & {
  access?: string;
  refresh?: string;
  isInternal?: boolean;
  /** Present on INVALID_REFRESH_CREDENTIALS: unlock attempts left before lockout. */
  attemptsLeft?: number;
};

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

export type Address = {
  street1: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
};

export type User = {
  fullName: string;
  email: string;
  phone: string;
  address: Address;
  isInternal: boolean;
  canUpdateAddress: boolean;
  canUpdatePhone: boolean;
};

export type UserAnswer = StatusAnswer & { user: User };

export type AnalyticsEvent = {
  name: string;
  at: string;
  /** Analytics session: a new one starts after 300000 ms without events (spec §7). */
  sessionId: string;
  properties: Record<string, unknown>;
};

/** Scalar user properties (experiment exposures and the like) apply to every event of the batch. */
export type UserProperties = Record<string, string | number | boolean>;

export type AnalyticsBatch = { events: AnalyticsEvent[]; userProperties?: UserProperties };

/** Spec §6 experiment flags. */
export type ExperimentFlags = {
  virtualCards: boolean;
  directDeposit: boolean;
  cashLoadMap: boolean;
  showNewDebitDetails: boolean;
};

/** GET /experiments?isInternal=true|false: 200 with flags, or 404 `{statusCode: 3}` when none exists. */
export type ExperimentsAnswer = StatusAnswer & { flags: ExperimentFlags };

export type ErrorReport = {
  level: 'warning' | 'error';
  message: string;
  at: string;
  /** Scrubbed on the client: never tokens, SSNs or full card numbers. */
  context: Record<string, string | number | boolean | null>;
};

/** POST /error-reports (sandbox mode; a real vendor's adapter replaces it in production). */
export type ErrorReportBatch = { reports: ErrorReport[] };
