/** The request schemas of contract/statements/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { object, string } from 'yup';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { statementsRoutes } from './routes.ts';
import { statementLocales } from './types.ts';

/** 'YYYY-MM': a calendar month. */
export const statementMonthPattern = /^[0-9]{4}-(0[1-9]|1[0-2])$/;

export const statementsSchemas = {
  getStatements: null,
  getStatementPdf: object({
    month: string().defined().matches(statementMonthPattern),
    locale: string().defined().oneOf(statementLocales),
  }).noUnknown(),
} satisfies RequestSchemas<typeof statementsRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const statementsSummaries = {
  getStatements:
    "The cardholder's monthly statements, newest first: one per calendar month in US Eastern time (New York) from the month the account opened through the current one, with opening and closing balances, credits and debits (the current month's so far, marked inProgress).",
  getStatementPdf:
    "One month's statement as a PDF (application/pdf, downloaded as an attachment) in English or Spanish: balances, every posted transfer, fees, the partner bank.",
} satisfies RouteSummaries<typeof statementsRoutes>;
