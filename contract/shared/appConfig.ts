/**
 * Runtime configuration the server hands the web app inside index.html
 * (`<script id="app-config" type="application/json">`), so one environment drives both the server's
 * frame-ancestors and the app's message allowlist. Every list holds exact origins.
 */
export type AppConfig = {
  sandbox: boolean;
  /** Companion benefits app hosts and their local development ports: the host protocol peers. */
  hostOrigins: string[];
  /** The card processor's secure hosts (hosted PIN page posts its result codes). */
  processorOrigins: string[];
  /** The account-linking provider's hosts (direct-deposit switchover). */
  accountLinkingOrigins: string[];
  /** Parents that frame the app without it counting as embedded (spec §1). */
  cmsPreviewOrigins: string[];
  testRunnerOrigins: string[];
};

export const appConfigElementId = 'app-config';
