/** The request schemas of contract/activity/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { object, string } from 'yup';
import { uuidPattern } from '../rules.ts';
import type { RequestSchemas, RouteSummaries } from '../shared/route.ts';
import type { activityRoutes } from './routes.ts';

export const activitySchemas = {
  getTransactions: object({
    cursor: string().max(200).matches(/^[A-Za-z0-9_-]+$/),
    // 1 to transactionsPageLimit (25) as a pattern, which the OpenAPI document carries (a yup test it could not).
    limit: string().matches(/^([1-9]|1[0-9]|2[0-5])$/),
  })
    .noUnknown()
    .nullable(),
  getTransaction: object({ id: string().defined().matches(uuidPattern) }).noUnknown(),
} satisfies RequestSchemas<typeof activityRoutes>;

/** What each call does, in one line: the OpenAPI document's summaries and docs/api.md's (never in the web app's bundle). */
export const activitySummaries = {
  getTransactions:
    "A page of the cardholder's transactions, newest first (holds marked pending); `cursor` from the previous page asks for the next one. The first page also totals the fees charged last month and this year so far (Regulation E §1005.18(c)(5)).",
  getTransaction: "One of the cardholder's transactions, with where and, for a hold, until when it is held; for a hold the merchant completed, when (its month in US Eastern time is the statement that counts it) and the amount first held.",
} satisfies RouteSummaries<typeof activityRoutes>;
