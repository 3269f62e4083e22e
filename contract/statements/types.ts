/**
 * Monthly statements (spec §2 /statements, §7 GET /statements): one per calendar month since the
 * account opened, read from the ledger's posted transfers. Months ('YYYY-MM') are calendar months in
 * US Eastern time, the program's calendar (contract/shared/businessDays.ts); money is integer cents. A
 * month's statement is also a PDF (GET /statement), made by the server in the reader's language.
 */
import type { StatusAnswer } from '../shared/answers.ts';

/** One month's totals. `closingBalance` = `openingBalance` + `credits` − `debits`. */
export type Statement = {
  /** 'YYYY-MM', a calendar month in US Eastern time. */
  month: string;
  /** Cents: the posted balance when the month began. */
  openingBalance: number;
  /** Cents: the posted balance when the month ended (so far, for the current month). */
  closingBalance: number;
  /** Cents, positive: money that came in during the month. */
  credits: number;
  /** Cents, positive: money that went out during the month, fees included. */
  debits: number;
  /** The current month: not over yet, so its figures are those so far. */
  inProgress: boolean;
  /**
   * Cents, positive: what holds pending now keep out of the available balance (purchases not yet
   * settled), which no balance here counts until they settle; the current month only (0 for a month
   * that is over). Why the closing balance so far is above the available balance home shows.
   */
  onHold: number;
};

/** Newest first, from the current month back to the month the account opened. */
export type StatementsAnswer = StatusAnswer & { statements: Statement[] };

/** The languages a statement PDF is written in. */
export const statementLocales = ['en', 'es'] as const;
export type StatementLocale = (typeof statementLocales)[number];

/** GET /statement?month=2026-11&locale=es: that month's statement as a PDF file. */
export type StatementPdfQuery = { month: string; locale: StatementLocale };

/** The file's name when saved, in the statement's language: `providers-statement-2026-11.pdf`, `providers-estado-de-cuenta-2026-11.pdf`. */
export const statementFileName = (month: string, locale: StatementLocale) =>
  `providers-${locale === 'es' ? 'estado-de-cuenta' : 'statement'}-${month}.pdf`;
