/** Activity's calls (spec §7 /transactions): the cardholder's transactions, a page at a time, and one of them. */
import { route } from '../shared/route.ts';
import type { TransactionAnswer, TransactionQuery, TransactionsPage, TransactionsQuery } from './types.ts';

export const activityRoutes = {
  getTransactions: route<TransactionsQuery | null, TransactionsPage>({
    name: 'getTransactions',
    method: 'GET',
    path: '/transactions',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 404: [3] },
  }),
  getTransaction: route<TransactionQuery, TransactionAnswer>({
    name: 'getTransaction',
    method: 'GET',
    path: '/transaction',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2], 401: [103, 104], 404: [3] },
  }),
};
