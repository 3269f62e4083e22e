/**
 * Error reporting (spec §8): warnings for UNEXPECTED_ERROR answers and for messages from unknown
 * origins, reported errors for failed statement and experiment loads. Every report is scrubbed
 * (contract/shared/redaction.ts, loaded apart: src/app/reportRedaction.ts) before any transport sees
 * it: no tokens, SSNs, card numbers or email addresses.
 * Transports: the console always, the card API in sandbox; a vendor adapter is one more transport.
 */
import { analyticsRoutes } from '../../contract/analytics/routes.ts';
import type { ErrorReport, ErrorReportBatch } from '../../contract/analytics/types.ts';
import { urlOf } from '../../contract/shared/route.ts';
import { loadRedaction, loadedRedaction, type Redaction } from './reportRedaction.ts';

export type ErrorReportTransport = (report: ErrorReport) => void;
export type ReportContext = Record<string, string | number | boolean | null | undefined>;

export type ErrorReporter = {
  warning: (message: string, context?: ReportContext) => void;
  error: (message: string, context?: ReportContext) => void;
};

export function createErrorReporter(transports: ErrorReportTransport[], now = () => new Date()): ErrorReporter {
  function report(level: ErrorReport['level'], message: string, context: ReportContext = {}): void {
    const at = now().toISOString();
    const defined = Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined));
    const send = ({ redactText, redactContext }: Redaction) => {
      const scrubbed: ErrorReport = {
        level,
        message: redactText(message).slice(0, 500),
        at,
        context: redactContext(defined as Record<string, string | number | boolean | null>),
      };
      for (const transport of transports) {
        try {
          transport(scrubbed);
        } catch {
          // Reporting must never become the error.
        }
      }
    };
    const rules = loadedRedaction();
    // Before the rules have loaded the report waits for them; offline until then, it is lost, never sent unscrubbed.
    if (rules) send(rules);
    else loadRedaction().then(send, () => {});
  }
  return { warning: (message, context) => report('warning', message, context), error: (message, context) => report('error', message, context) };
}

export const consoleTransport: ErrorReportTransport = (report) => {
  const log = report.level === 'warning' ? console.warn : console.error;
  log(`[${report.level}] ${report.message}`, report.context);
};

/** Sandbox: reports go to POST /api/v1/error-reports, a few at a time, after the current task. */
export function cardApiErrorTransport(headers: () => Record<string, string>): ErrorReportTransport {
  let queue: ErrorReport[] = [];
  return (report) => {
    queue.push(report);
    if (queue.length > 1) return;
    setTimeout(() => {
      const reports = queue;
      queue = [];
      // The intake takes at most 20 reports a batch.
      for (let start = 0; start < reports.length; start += 20) {
        const batch: ErrorReportBatch = { reports: reports.slice(start, start + 20) };
        void fetch(urlOf(analyticsRoutes.sendErrorReports), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers() },
          body: JSON.stringify(batch),
          keepalive: true,
        }).catch(() => {});
      }
    }, 0);
  };
}
