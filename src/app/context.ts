/** What every route and view can reach: the root actors, the API client and configuration. */
import type { ActorRefFrom } from 'xstate';
import type { experimentsMachine } from '../../machines/experiments/experiments.ts';
import type { sessionMachine } from '../../machines/session/session.ts';
import type { Api } from '../shared/api/client.ts';
import type { Host } from '../shared/host/host.ts';
import type { Analytics } from './analytics.ts';
import type { ErrorReporter } from './errorReporting.ts';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type ExperimentsActor = ActorRefFrom<typeof experimentsMachine>;

export type AppContext = {
  session: SessionActor;
  api: Api;
  analytics: Analytics;
  errors: ErrorReporter;
  /** The companion app when embedded, the browser when standalone. */
  host: Host;
  guardsEnabled: boolean;
  embedded: boolean;
  /** Where the user was before the navigation under way (for guards that depend on it). */
  previousLocation: () => { pathname: string; href: string } | undefined;
  /** Experiment flags (spec §6); every flag is off until and unless the config says otherwise. */
  experiments: ExperimentsActor;
  /**
   * Where the last-known balance and activity are kept for when the network is gone
   * (src/shared/offline/lastKnown.ts): the phone's storage standalone, none when embedded.
   */
  offlineStorage: Storage | null;
  /** How long home and activity wait for an answer before they show the last-known copy meanwhile (machines/shared/lastKnown.ts `slowAnswerMs`). */
  slowAnswerMs: number;
};
