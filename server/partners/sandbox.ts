/**
 * Sandbox controls for testers and e2e tests (sandbox mode only, never in production).
 * POST /sandbox/sessions signs a user in with a chosen access-token lifetime, so session expiry
 * (REFRESH_REQUIRED → unlock) can be shown without waiting 15 minutes; POST /sandbox/sessions/expire ends
 * a session's access token at once, so a test decides when expiry happens instead of racing a clock. The readers show what the app
 * reported (analytics, error reports); the experiment controls stand in for the remote config service;
 * POST /sandbox/events moves money and cards (moneyEvents.ts); GET /sandbox/cards shows what is printed
 * on a cardholder's cards.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { number, object, string, ValidationError } from 'yup';
import type { ExperimentFlags } from '../../contract/experiments/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { emailRule, experimentFlagsSchema } from '../../contract/validation.ts';
import type { Database } from '../db/database.ts';
import {
  accounts,
  analyticsEvents,
  cards,
  type ExperimentAudience,
  experimentAudiences,
  experimentConfigs,
  errorReports,
  users,
} from '../db/schema/index.ts';
import type { Sessions } from '../sessions.ts';
import { readSandboxEmailOutbox } from './email.ts';
import { registerMoneyEvents } from './moneyEvents.ts';
import { readSandboxOutbox } from './sms.ts';

const sessionRequest = object({
  email: emailRule,
  accessTtlSeconds: number().integer().min(1).max(3600).required(),
}).noUnknown();

const expireRequest = object({ access: string().required() }).noUnknown();

/** Query strings arrive as text: a whole number from 1 to 500. */
const limitRule = string().test('limit', (value) => value === undefined || (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= 500));
const defaultLimit = 50;

/** A phone as typed (digits, spaces, dashes, brackets, a leading +1 is not expected). */
const outboxQuery = object({ phone: string().matches(/^[\d\s()+-]{1,20}$/), limit: limitRule }).noUnknown();
const emailOutboxQuery = object({ email: string().max(254), limit: limitRule }).noUnknown();
const analyticsQuery = object({ name: string().max(80), limit: limitRule }).noUnknown();
const errorReportsQuery = object({ limit: limitRule }).noUnknown();
const cardsQuery = object({ email: string().max(254).required() }).noUnknown();
const experimentRequest = object({
  audience: string().required().oneOf(experimentAudiences),
  flags: experimentFlagsSchema,
}).noUnknown();

/**
 * A tester's request that breaks a rule is told which fields: `invalid` (a value out of its rule) and
 * `unexpected` (a field no sandbox call knows). The app's own calls answer with their fieldErrors instead.
 */
function namedFields(error: ValidationError) {
  const failures = error.inner.length > 0 ? error.inner : [error];
  const unexpected = failures.flatMap((failure) =>
    failure.type === 'noUnknown' ? String(failure.params?.unknown ?? '').split(', ').map((key) => (failure.path ? `${failure.path}.${key}` : key)) : [],
  );
  const invalid = [...new Set(failures.flatMap((failure) => (failure.type !== 'noUnknown' && failure.path ? [failure.path] : [])))];
  return { ...(invalid.length > 0 && { invalid }), ...(unexpected.length > 0 && { unexpected }) };
}

export function registerSandboxRoutes(app: FastifyInstance, db: Database, sessions: Sessions): void {
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof ValidationError)) throw error; // the app's handler answers everything else
    return reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS, ...namedFields(error) });
  });
  registerMoneyEvents(app, db);

  app.post<{ Body: { email: string; accessTtlSeconds: number } }>(
    '/sessions',
    { schema: { body: sessionRequest } },
    async (request, reply) => {
      const { email, accessTtlSeconds } = request.body;
      const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
      if (!user) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
      const tokens = await sessions.startSession(user.id, accessTtlSeconds);
      return { statusCode: StatusCode.SUCCESS, ...tokens, isInternal: user.isInternal };
    },
  );

  app.post<{ Body: { access: string } }>('/sessions/expire', { schema: { body: expireRequest } }, async (request, reply) => {
    if (!(await sessions.expireAccessToken(request.body.access))) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    return { statusCode: StatusCode.SUCCESS };
  });

  app.get<{ Querystring: { name?: string; limit?: string } }>(
    '/analytics-events',
    { schema: { querystring: analyticsQuery } },
    async (request) => {
      const { name, limit } = request.query;
      const events = await db
        .select()
        .from(analyticsEvents)
        .where(name === undefined ? undefined : eq(analyticsEvents.name, name))
        .orderBy(desc(analyticsEvents.receivedAt), desc(analyticsEvents.occurredAt))
        .limit(Number(limit ?? defaultLimit));
      return { statusCode: StatusCode.SUCCESS, events };
    },
  );

  app.get<{ Querystring: { limit?: string } }>(
    '/error-reports',
    { schema: { querystring: errorReportsQuery } },
    async (request) => {
      const reports = await db
        .select()
        .from(errorReports)
        .orderBy(desc(errorReports.receivedAt), desc(errorReports.occurredAt))
        .limit(Number(request.query.limit ?? defaultLimit));
      return { statusCode: StatusCode.SUCCESS, reports };
    },
  );

  /**
   * A cardholder's cards with what is printed on them (last 4, expiry), oldest first: what a tester
   * types to activate a card. The card API itself never answers a pending card's last 4.
   */
  app.get<{ Querystring: { email: string } }>('/cards', { schema: { querystring: cardsQuery } }, async (request, reply) => {
    const rows = await db
      .select({ id: cards.id, type: cards.type, status: cards.status, isPending: cards.isPending, lastFour: cards.lastFour, expiry: cards.expiry })
      .from(cards)
      .innerJoin(accounts, eq(accounts.id, cards.accountId))
      .innerJoin(users, eq(users.id, accounts.userId))
      .where(sql`lower(${users.email}) = lower(${request.query.email.trim()})`)
      .orderBy(cards.orderedAt, cards.createdAt, cards.id);
    if (rows.length === 0) return reply.code(404).send({ statusCode: StatusCode.NOT_ALLOWED });
    return { statusCode: StatusCode.SUCCESS, cards: rows };
  });

  /** The sandbox SMS gateway's texts (verification codes in clear, for testers), newest first. */
  app.get<{ Querystring: { phone?: string; limit?: string } }>(
    '/outbox',
    { schema: { querystring: outboxQuery } },
    async (request) => {
      const { phone, limit } = request.query;
      // A text on its way has arrived by the time a tester looks at the phone.
      await app.afterAnswer.settled();
      const digits = phone === undefined ? undefined : phone.replace(/\D/g, '');
      const messages = await readSandboxOutbox(db, digits, Number(limit ?? defaultLimit));
      return { statusCode: StatusCode.SUCCESS, messages };
    },
  );

  /** The sandbox email gateway's emails (the owner's notices), newest first. */
  app.get<{ Querystring: { email?: string; limit?: string } }>(
    '/email-outbox',
    { schema: { querystring: emailOutboxQuery } },
    async (request) => {
      const { email, limit } = request.query;
      await app.afterAnswer.settled();
      const emails = await readSandboxEmailOutbox(db, email?.trim(), Number(limit ?? defaultLimit));
      return { statusCode: StatusCode.SUCCESS, emails };
    },
  );

  app.get('/experiments', async () => {
    const rows = await db.select().from(experimentConfigs);
    const flagsOf = (audience: ExperimentAudience) => rows.find((row) => row.audience === audience)?.flags ?? null;
    return { statusCode: StatusCode.SUCCESS, everyone: flagsOf('everyone'), internal: flagsOf('internal') };
  });

  app.put<{ Body: { audience: ExperimentAudience; flags: ExperimentFlags } }>(
    '/experiments',
    { schema: { body: experimentRequest } },
    async (request) => {
      const { audience, flags } = request.body;
      await db
        .insert(experimentConfigs)
        .values({ audience, flags })
        .onConflictDoUpdate({ target: experimentConfigs.audience, set: { flags, updatedAt: new Date() } });
      return { statusCode: StatusCode.SUCCESS };
    },
  );

  /** Back to the default state: no config, so GET /api/v1/experiments answers 404. */
  app.delete('/experiments', async () => {
    await db.delete(experimentConfigs);
    return { statusCode: StatusCode.SUCCESS };
  });
}
