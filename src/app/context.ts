/** What every route and view can reach: the root actors, the API client and configuration. */
import type { ActorRefFrom } from 'xstate';
import type { sessionMachine } from '../../machines/session.ts';
import type { Api } from '../api/client.ts';
import type { Analytics } from './analytics.ts';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;

export type ExperimentFlags = {
  virtualCards: boolean;
  directDeposit: boolean;
  cashLoadMap: boolean;
  showNewDebitDetails: boolean;
};

export type AppContext = {
  session: SessionActor;
  api: Api;
  analytics: Analytics;
  guardsEnabled: boolean;
  embedded: boolean;
  /** Where the user was before the navigation under way (for guards that depend on it). */
  previousPathname: () => string | undefined;
  /** Experiment config arrives with embedded mode; until then every flag is off. */
  experiments: () => ExperimentFlags;
};
