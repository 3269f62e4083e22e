/** Analytics events and error reports the app sends (spec §7 analytics, §8 reporting). */

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

export type ErrorReport = {
  level: 'warning' | 'error';
  message: string;
  at: string;
  /** Scrubbed on the client: never tokens, SSNs or full card numbers. */
  context: Record<string, string | number | boolean | null>;
};

/** POST /error-reports (sandbox mode; a real vendor's adapter replaces it in production). */
export type ErrorReportBatch = { reports: ErrorReport[] };
