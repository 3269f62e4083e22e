/** Statements' calls (spec §7 GET /statements, GET /statement), made from its route table over the app's API client. */
import { statementsRoutes as statements } from '../../../contract/statements/routes.ts';
import type { StatementLocale } from '../../../contract/statements/types.ts';
import type { ErrorReporter } from '../../app/errorReporting.ts';
import { ApiRefusedError, ApiUnavailableError, AuthRequiredError, succeeded, type Api } from '../../shared/api/client.ts';

export type StatementsCalls = ReturnType<typeof statementsCalls>;

export function statementsCalls({ call, download }: Api) {
  return {
    /**
     * Every month, newest first. Anything but SUCCESS is a failure, which is only reported (spec §8):
     * no error modal, the screen says so itself.
     */
    getStatements: () => succeeded(call(statements.getStatements, null, { suppressErrorModal: true })),
    /** A month's statement as a PDF, in the reader's language; a failure is said on the screen, not in the error modal. */
    getStatementPdf: (month: string, locale: StatementLocale) =>
      download(statements.getStatementPdf, { month, locale }, { suppressErrorModal: true }),
  };
}

/**
 * Spec §8: a list that failed to load is reported (a warning, with why: never a token or a body).
 * Giving up the auth modal is not a failure to report: the session already knows.
 */
export function reportLoadFailure(errors: ErrorReporter, error: unknown): void {
  if (error instanceof AuthRequiredError) return;
  const reason = error instanceof ApiRefusedError ? `statusCode ${error.statusCode}` : error instanceof ApiUnavailableError ? 'no statusCode' : 'unknown';
  errors.warning('Statements failed to load', { reason });
}
