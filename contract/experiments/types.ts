/** Remote experiment config (spec §6 flags, §7 "a remote experiment config fetch"). */
import type { StatusAnswer } from '../shared/answers.ts';

/** Spec §6 experiment flags. */
export type ExperimentFlags = {
  virtualCards: boolean;
  directDeposit: boolean;
  cashLoadMap: boolean;
  showNewDebitDetails: boolean;
};

export type ExperimentsQuery = { isInternal?: 'true' | 'false' };
/** GET /experiments?isInternal=true|false: 200 with flags, or 404 `{statusCode: 3}` when none exists. */
export type ExperimentsAnswer = StatusAnswer & { flags: ExperimentFlags };
