/**
 * The card processor (docs/architecture.md §7, docs/sandbox.md "Card processor"): it issues the cards
 * and holds what the card API never stores or answers, the card number, the CVV and the PIN. The card
 * API reaches it through CardProcessor; a production adapter implements the same interface.
 *
 * The sandbox processor (sandbox mode only) runs on its own origin (http://localhost:PROCESSOR_PORT,
 * started by server/main.ts like the companion host) and serves:
 * - `GET /pin?token=&locale=`: the hosted PIN form (a single-use token, 10 minutes; a newer token for
 *   the same card and PIN replaces it). It posts its result to the framing app, at the app's exact
 *   origins only: 0 when the PIN is set, -10 for a used, expired or unknown token, -11 for a replaced
 *   one. Sandbox buttons answer -10 and -11 on demand.
 * - `GET /card-details?token=&locale=`: the virtual card's number, expiry and CVV (single-use token, 5 minutes).
 * - `GET /card-image/{id}.svg?expires=&sig=`: the card's picture (a signed address, good for a day).
 * Card numbers and CVVs are derived from the card id under the processor's own key (nothing to store);
 * PINs are kept as scrypt hashes in its own table. Every answer carries a CSP whose frame-ancestors
 * are the app's origins (and the hosts allowed to frame the app: CSP checks every ancestor).
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { object, string } from 'yup';
import { PinChangeResult, type PinKind } from '../../contract/cards/types.ts';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { cards, processorPins, processorTokens } from '../db/schema/index.ts';
import { hashSecret, hashToken, randomToken } from '../secrets.ts';
import { partnerMalformedRequests } from '../securityHeaders.ts';
import { requestTargetOptions, registerHostChecks } from '../shared/requestHost.ts';
import { yupValidatorCompiler } from '../shared/http.ts';
import { loggableError } from '../shared/errorLog.ts';
import { partnerLogger, type PartnerLogOptions } from '../shared/requestLog.ts';
import {
  cardDetailsExpiredPage,
  cardDetailsPage,
  cardImageSvg,
  pinFormPage,
  pinProblem,
  pinResultPage,
  postResultScript,
  problemText,
  processorLocaleOf,
  processorStyles,
} from './processorPages.ts';

/** What the card API asks of the card processor. */
export type CardProcessor = {
  /** A new physical card: what is printed on it (the card API keeps these to check activation). */
  issuePhysicalCard: (now: Date) => Promise<{ lastFour: string; expiry: string }>;
  /** The card's image on the processor's origin. */
  cardImageUrl: (request: { cardId: string; locale: 'en' | 'es' }) => string;
  /** A single-use page showing the virtual card's number, expiry and CVV. */
  cardDetailsUrl: (request: { cardId: string; locale: 'en' | 'es' }) => Promise<string>;
  /** A single-use hosted form that sets the card's PIN or ATM PIN. */
  pinChangeFormUrl: (request: { cardId: string; pin: PinKind; locale: 'en' | 'es' }) => Promise<string>;
  /**
   * When the processor's latest setting of that PIN through its form, within the time allowed, was first
   * confirmed: confirmed now if it was not yet, or the first confirmation's time again when it was (a
   * card API call whose answer was lost, sent again); null when there is no such change.
   */
  confirmPinChange: (request: { cardId: string; pin: PinKind }) => Promise<Date | null>;
};

/** Outside sandbox mode, until a real processor is configured: every call fails loudly. */
export const unconfiguredCardProcessor: CardProcessor = {
  issuePhysicalCard: () => Promise.reject(new Error('No card processor is configured.')),
  cardImageUrl: () => '',
  cardDetailsUrl: () => Promise.reject(new Error('No card processor is configured.')),
  pinChangeFormUrl: () => Promise.reject(new Error('No card processor is configured.')),
  confirmPinChange: () => Promise.reject(new Error('No card processor is configured.')),
};

const pinTokenSeconds = 10 * 60;
const detailsTokenSeconds = 5 * 60;
/**
 * A card picture's address works for a day: long enough for any visit of Manage cards (the screen asks
 * for it once per card shown), short enough that a link copied out of a page or a log stops showing
 * whose card ends in which digits.
 */
const imageLinkSeconds = 24 * 60 * 60;
/** A PIN set through the form must be confirmed by the card API within this time. */
const confirmWithinSeconds = 15 * 60;
const expiryYears = 4;

/** The sandbox processor's own address: its first configured origin, or its port on this machine. */
export const processorUrlOf = (config: ServerConfig) => config.processorOrigins[0] ?? `http://localhost:${config.processorPort}`;

/** The processor's key (sandbox): derived from the server's, so it differs per deployment and is never stored. */
const processorKeyOf = (config: ServerConfig) => createHmac('sha256', config.tokenSecret).update('sandbox card processor').digest();

const hmacOf = (key: Buffer, ...parts: string[]) => createHmac('sha256', key).update(JSON.stringify(parts)).digest();

/** Digits from an HMAC (each byte mod 10; the slight bias does not matter for sandbox numbers). */
const digitsOf = (bytes: Buffer, count: number) => [...bytes.subarray(0, count)].map((byte) => byte % 10).join('');

/**
 * The sandbox card number of a card: 16 digits, a test BIN, the card's last 4, and a Luhn-valid check
 * made by the one free digit before them (5th from the right, which Luhn does not double).
 */
export function sandboxPan(key: Buffer, cardId: string, lastFour: string): string {
  const head = `400012${digitsOf(hmacOf(key, 'pan', cardId), 5)}`;
  const luhnSum = (pan: string) =>
    [...pan].reverse().reduce((sum, digit, i) => {
      const value = Number(digit) * (i % 2 === 1 ? 2 : 1);
      return sum + (value > 9 ? value - 9 : value);
    }, 0);
  const free = (10 - (luhnSum(`${head}0${lastFour}`) % 10)) % 10;
  return `${head}${free}${lastFour}`;
}

export function createSandboxProcessor(db: Database, config: ServerConfig): CardProcessor & { key: Buffer } {
  const key = processorKeyOf(config);
  const base = processorUrlOf(config);

  async function issueToken(purpose: 'pin-change' | 'card-details', cardId: string, pin: PinKind | null, seconds: number): Promise<string> {
    const token = randomToken();
    await db.transaction(async (tx) => {
      // A newer PIN form for the same card and PIN replaces the one before it (that page answers -11).
      if (pin) {
        await tx
          .update(processorTokens)
          .set({ supersededAt: new Date() })
          .where(and(eq(processorTokens.cardId, cardId), eq(processorTokens.purpose, purpose), eq(processorTokens.pinKind, pin), isNull(processorTokens.usedAt), isNull(processorTokens.supersededAt)));
      }
      await tx.insert(processorTokens).values({
        tokenHash: hashToken(token),
        purpose,
        cardId,
        pinKind: pin,
        expiresAt: sql`now() + make_interval(secs => ${seconds})`,
      });
    });
    return token;
  }

  return {
    key,
    issuePhysicalCard: async (now) => {
      const month = String(now.getUTCMonth() + 1).padStart(2, '0');
      const year = String((now.getUTCFullYear() + expiryYears) % 100).padStart(2, '0');
      return { lastFour: String(randomInt(0, 10_000)).padStart(4, '0'), expiry: `${month}/${year}` };
    },
    // Signed for the card and until when: the language changes the words on the picture, never whose card it is.
    cardImageUrl: ({ cardId, locale }) => {
      const expires = String(Math.floor(Date.now() / 1000) + imageLinkSeconds);
      return `${base}/card-image/${cardId}.svg?expires=${expires}&sig=${hmacOf(key, 'image', cardId, expires).toString('base64url')}&locale=${locale}`;
    },
    cardDetailsUrl: async ({ cardId, locale }) =>
      `${base}/card-details?token=${await issueToken('card-details', cardId, null, detailsTokenSeconds)}&locale=${locale}`,
    pinChangeFormUrl: async ({ cardId, pin, locale }) =>
      `${base}/pin?token=${await issueToken('pin-change', cardId, pin, pinTokenSeconds)}&locale=${locale}`,
    confirmPinChange: async ({ cardId, pin }) => {
      // The latest change only: an older one is never confirmed after a newer one. Confirmed once; a
      // repeat (the same change, its first confirmation's answer lost) finds it confirmed and is told when.
      const latest = sql`(select id from processor_tokens where card_id = ${cardId} and purpose = 'pin-change' and pin_kind = ${pin}
          and completed_at is not null and completed_at > now() - make_interval(secs => ${confirmWithinSeconds})
          order by completed_at desc limit 1)`;
      const [confirmed] = await db
        .update(processorTokens)
        .set({ committedAt: sql`coalesce(${processorTokens.committedAt}, now())` })
        .where(eq(processorTokens.id, latest))
        .returning({ at: processorTokens.committedAt });
      return confirmed?.at ?? null;
    },
  };
}

// The sandbox processor's own server ---------------------------------------------------------------

/** CSP of every processor answer: its own scripts and styles only, framed only by the app (and those allowed to frame the app). */
export function processorContentSecurityPolicy(frameAncestors: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

export type ProcessorServerOptions = PartnerLogOptions & {
  /** The card app's exact origins: the only ones its pages post results to. */
  appOrigins: string[];
};

const tokenRule = string().max(100).matches(/^[A-Za-z0-9_-]*$/);
const localeRule = string().oneOf(['en', 'es']);
const pinQuery = object({ token: tokenRule.required(), locale: localeRule }).noUnknown();
const pinForm = object({ token: tokenRule.required(), locale: localeRule, pin: string().max(20).required(), pinConfirm: string().max(20).required() }).noUnknown();
const simulateForm = object({ token: tokenRule.required(), locale: localeRule, result: string().oneOf(['-10', '-11']).required() }).noUnknown();
const detailsQuery = object({ token: tokenRule.required(), locale: localeRule }).noUnknown();
/** The language of a page's problem: the query's `locale` (the app sends its own) when it names one, else the browser's. */
const localeOfRequest = (request: FastifyRequest) =>
  processorLocaleOf((request.query as Record<string, unknown> | undefined)?.locale, request.headers['accept-language']);

const imageQuery = object({ expires: string().matches(/^\d{1,12}$/).required(), sig: string().max(100).required(), locale: localeRule }).noUnknown();

type PinTokenState = { state: 'valid'; pin: PinKind } | { state: 'expired' } | { state: 'changed' };

/** The processor's server on its own origin, not listening (tests use inject). */
export async function buildProcessorServer(config: ServerConfig, db: Database, options: ProcessorServerOptions): Promise<FastifyInstance> {
  const { key } = createSandboxProcessor(db, config);
  const appOrigins = options.appOrigins.map((origin) => new URL(origin).origin);
  const frameAncestors = [...new Set([...appOrigins, ...config.companionOrigins, ...config.devOrigins])];
  const headers = [
    ['Content-Security-Policy', processorContentSecurityPolicy(frameAncestors)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    // Its pages show a card's number and take PINs: nothing there needs the phone's devices.
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()'],
  ] as const;
  const server = Fastify({
    logger: partnerLogger(config.logLevel, options),
    bodyLimit: 4 * 1024,
    ...partnerMalformedRequests(headers, { error: 'bad request' }),
    ...requestTargetOptions,
  });
  registerHostChecks(server, config, { error: 'bad request' });
  server.addHook('onSend', async (_request, reply) => {
    for (const [name, value] of headers) reply.header(name, value);
    // Read by no other site, but the card images, which the app's page shows (their route says so).
    if (!reply.hasHeader('Cross-Origin-Resource-Policy')) reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
  });
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(body as string)) {
      // A field sent twice is not something these forms send.
      if (Object.hasOwn(fields, name)) return done(Object.assign(new Error('repeated field'), { statusCode: 400 }));
      fields[name] = value;
    }
    done(null, fields);
  });
  server.setValidatorCompiler(yupValidatorCompiler);
  server.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = localeOfRequest(request);
    if (error.validation || error.name === 'ValidationError' || (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)) {
      return reply.code(error.statusCode === 413 || error.statusCode === 415 ? error.statusCode : 400).type('text/plain; charset=utf-8').send(problemText(locale, 'badRequest'));
    }
    request.log.error(loggableError(error), 'card processor error');
    return reply.code(500).type('text/plain; charset=utf-8').send(problemText(locale, 'unexpected'));
  });

  async function pinTokenState(token: string): Promise<PinTokenState> {
    const [row] = await db
      .select({ pin: processorTokens.pinKind, supersededAt: processorTokens.supersededAt, live: sql<boolean>`${processorTokens.usedAt} is null and ${processorTokens.expiresAt} > now()` })
      .from(processorTokens)
      .where(and(eq(processorTokens.tokenHash, hashToken(token)), eq(processorTokens.purpose, 'pin-change')));
    if (!row || !row.live) return { state: 'expired' };
    if (row.supersededAt) return { state: 'changed' };
    return { state: 'valid', pin: row.pin! };
  }
  const resultOf = (state: PinTokenState) => (state.state === 'changed' ? PinChangeResult.TOKEN_CHANGED : PinChangeResult.TOKEN_EXPIRED);

  server.get<{ Querystring: { token: string; locale?: string } }>('/pin', { schema: { querystring: pinQuery } }, async (request, reply) => {
    const locale = processorLocaleOf(request.query.locale, request.headers['accept-language']);
    const state = await pinTokenState(request.query.token);
    const page =
      state.state === 'valid'
        ? pinFormPage({ locale, pin: state.pin, token: request.query.token })
        : pinResultPage({ locale, code: resultOf(state), appOrigins });
    return reply.type('text/html; charset=utf-8').send(page);
  });

  server.post<{ Body: { token: string; locale?: string; pin: string; pinConfirm: string } }>(
    '/pin',
    { schema: { body: pinForm } },
    async (request, reply) => {
      const { token, pin, pinConfirm } = request.body;
      const locale = processorLocaleOf(request.body.locale);
      const state = await pinTokenState(token);
      if (state.state !== 'valid') return reply.type('text/html; charset=utf-8').send(pinResultPage({ locale, code: resultOf(state), appOrigins }));
      const problem = pinProblem(pin, pinConfirm);
      if (problem) return reply.code(422).type('text/html; charset=utf-8').send(pinFormPage({ locale, pin: state.pin, token, problem }));
      const pinHash = await hashSecret(pin);
      const set = await db.transaction(async (tx) => {
        // Spent here, once: of two submissions of one form, the second finds it used.
        const [spent] = await tx
          .update(processorTokens)
          .set({ usedAt: sql`now()`, completedAt: sql`now()` })
          .where(sql`${processorTokens.tokenHash} = ${hashToken(token)} and ${processorTokens.usedAt} is null and ${processorTokens.supersededAt} is null and ${processorTokens.expiresAt} > now()`)
          .returning({ cardId: processorTokens.cardId, pin: processorTokens.pinKind });
        if (!spent) return false;
        await tx
          .insert(processorPins)
          .values({ cardId: spent.cardId, pinKind: spent.pin!, pinHash })
          .onConflictDoUpdate({ target: [processorPins.cardId, processorPins.pinKind], set: { pinHash, setAt: sql`now()` } });
        return true;
      });
      const code = set ? PinChangeResult.SUCCESS : resultOf(await pinTokenState(token));
      return reply.type('text/html; charset=utf-8').send(pinResultPage({ locale, code, appOrigins }));
    },
  );

  /** Sandbox only: answer -10 (the token is spent) or -11, as the processor would, without setting a PIN. */
  server.post<{ Body: { token: string; locale?: string; result: '-10' | '-11' } }>(
    '/pin/simulate',
    { schema: { body: simulateForm } },
    async (request, reply) => {
      const locale = processorLocaleOf(request.body.locale);
      // A PIN form's token only: the card details' is not this page's to spend.
      const pinForm = and(eq(processorTokens.tokenHash, hashToken(request.body.token)), eq(processorTokens.purpose, 'pin-change'), isNull(processorTokens.usedAt));
      await db.update(processorTokens).set({ usedAt: sql`now()` }).where(pinForm);
      const code = request.body.result === '-10' ? PinChangeResult.TOKEN_EXPIRED : PinChangeResult.TOKEN_CHANGED;
      return reply.type('text/html; charset=utf-8').send(pinResultPage({ locale, code, appOrigins }));
    },
  );

  // GET only: the HEAD Fastify would add runs this handler, so a link preview or a prefetch spent the token.
  server.get<{ Querystring: { token: string; locale?: string } }>('/card-details', { schema: { querystring: detailsQuery }, exposeHeadRoute: false }, async (request, reply) => {
    const locale = processorLocaleOf(request.query.locale, request.headers['accept-language']);
    const [spent] = await db
      .update(processorTokens)
      .set({ usedAt: sql`now()` })
      .where(sql`${processorTokens.tokenHash} = ${hashToken(request.query.token)} and ${processorTokens.purpose} = 'card-details'
        and ${processorTokens.usedAt} is null and ${processorTokens.expiresAt} > now()`)
      .returning({ cardId: processorTokens.cardId });
    const [card] = spent ? await db.select({ lastFour: cards.lastFour, expiry: cards.expiry }).from(cards).where(eq(cards.id, spent.cardId)) : [];
    if (!card) return reply.code(410).type('text/html; charset=utf-8').send(cardDetailsExpiredPage(locale));
    const cvv = digitsOf(hmacOf(key, 'cvv', spent!.cardId), 3);
    return reply.type('text/html; charset=utf-8').send(cardDetailsPage({ locale, pan: sandboxPan(key, spent!.cardId, card.lastFour), expiry: card.expiry, cvv }));
  });

  server.get<{ Params: { file: string }; Querystring: { expires: string; sig: string; locale?: 'en' | 'es' } }>(
    '/card-image/:file',
    { schema: { querystring: imageQuery } },
    async (request, reply) => {
      const locale = localeOfRequest(request);
      const notFound = () => reply.code(404).type('text/plain; charset=utf-8').send(problemText(locale, 'notFound'));
      const cardId = /^([0-9a-f-]{36})\.svg$/.exec(request.params.file)?.[1];
      const { expires } = request.query;
      const expected = cardId && Number(expires) * 1000 > Date.now() ? hmacOf(key, 'image', cardId, expires) : undefined;
      const given = Buffer.from(request.query.sig, 'base64url');
      if (!cardId || !expected || given.length !== expected.length || !timingSafeEqual(given, expected)) return notFound();
      const [card] = await db
        .select({ type: cards.type, lastFour: cards.lastFour, isPending: cards.isPending })
        .from(cards)
        .where(sql`${cards.id} = ${cardId}`);
      if (!card) return notFound();
      return reply
        .header('Cache-Control', 'private, max-age=300')
        // Without `locale`, the words follow the browser's language: a cache keeps the two apart.
        .header('Vary', 'accept-language')
        // The app shows it from its own origin.
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .type('image/svg+xml')
        .send(cardImageSvg(locale, { type: card.type, lastFour: card.isPending ? null : card.lastFour }));
    },
  );

  server.get('/post-result.js', async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').type('text/javascript; charset=utf-8').send(postResultScript),
  );
  server.get('/processor.css', async (_request, reply) => reply.header('Cache-Control', 'no-cache').type('text/css; charset=utf-8').send(processorStyles));

  server.setNotFoundHandler((request, reply) => reply.code(404).type('text/plain; charset=utf-8').send(problemText(localeOfRequest(request), 'notFound')));
  return server;
}

/** Builds the processor's server and listens on config.processorPort; the caller closes it on shutdown. */
export async function startProcessor(config: ServerConfig, db: Database, options: ProcessorServerOptions): Promise<FastifyInstance> {
  const server = await buildProcessorServer(config, db, options);
  await server.listen({ port: config.processorPort, host: config.host });
  return server;
}
