/**
 * What an unexpected error may put in the log. A failed query's message holds its parameters (ids,
 * emails, analytics values) and PostgreSQL's own message can quote a value, so for database errors only
 * the SQL text, the SQLSTATE and the constraint are kept.
 */
type DatabaseFailure = Error & { query?: string; params?: unknown; code?: string; constraint?: string; cause?: unknown };

/** The SQLSTATE of a database error, wrapped by Drizzle (`cause`) or not. */
export function sqlStateOf(error: unknown): string | undefined {
  const failure = error as DatabaseFailure | undefined;
  const code = failure?.code ?? (failure?.cause as DatabaseFailure | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function loggableError(error: Error): Record<string, unknown> {
  const failure = error as DatabaseFailure;
  const cause = failure.cause as DatabaseFailure | undefined;
  const sqlState = sqlStateOf(error);
  if (typeof failure.query !== 'string' && sqlState === undefined) return { err: error };
  return {
    err: {
      type: 'DatabaseError',
      sqlState,
      constraint: failure.constraint ?? cause?.constraint,
      query: typeof failure.query === 'string' ? failure.query : undefined,
    },
  };
}
