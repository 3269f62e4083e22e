/**
 * What the app asks of wherever it runs. Standalone, the browser does it; embedded, the companion
 * host does (startEmbedded.ts). Views use this and never know which.
 */
import type { ComponentType } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { hostMachine } from '../../../machines/host/host.ts';
import type { BenefitKind, CmsSitevars } from '../../../contract/hostProtocol.ts';

export type HostActor = ActorRefFrom<typeof hostMachine>;

export type Host = {
  embedded: boolean;
  openUrl: (url: string) => void;
  /** Resolves when the text is on the clipboard (or handed to the host that puts it there). */
  copyText: (text: string) => Promise<void>;
  /** Back to one of the companion app's own screens; null when standalone. */
  returnToHostRoute: ((route: string) => void) | null;
  eligibleBenefits: BenefitKind[];
  /** Notification permission lives with the host; null when standalone. */
  actor: HostActor | null;
  sendSitevars: (sitevars: CmsSitevars) => void;
  /** The companion app's own access token (proves the companion user at registration); null standalone. */
  companionAccessToken: () => Promise<string | null>;
  /** The parent-app user's uuid (spec §6 providers user), sent with a registration; null standalone. */
  providersUuid: string | null;
  /** Shown on sign-in when the companion app's sign-in got no answer (CompanionSignInNotice.tsx); null standalone. */
  signInNotice: ComponentType | null;
};

export const standaloneHost = (window: Window): Host => ({
  embedded: false,
  openUrl: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
  copyText: (text) => window.navigator.clipboard.writeText(text),
  returnToHostRoute: null,
  eligibleBenefits: [],
  actor: null,
  sendSitevars: () => {},
  companionAccessToken: async () => null,
  providersUuid: null,
  signInNotice: null,
});
