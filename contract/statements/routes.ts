/** Statements' calls (spec §7 GET /statements): the months' totals, and one month's statement as a PDF. */
import type { StatusAnswer } from '../shared/answers.ts';
import { route } from '../shared/route.ts';
import type { StatementPdfQuery, StatementsAnswer } from './types.ts';

export const statementsRoutes = {
  getStatements: route<null, StatementsAnswer>({
    name: 'getStatements',
    method: 'GET',
    path: '/statements',
    caller: 'accessToken',
    answers: { 200: [0], 401: [103, 104] },
  }),
  /** 200 is the PDF itself; a refusal is JSON (404 `{3}` for a month outside the account's life). */
  getStatementPdf: route<StatementPdfQuery, StatusAnswer>({
    name: 'getStatementPdf',
    method: 'GET',
    path: '/statement',
    caller: 'accessToken',
    file: 'application/pdf',
    answers: { 200: [], 400: [2], 401: [103, 104], 404: [3] },
  }),
};
