/**
 * Registers a route table entry (contract/<feature>/routes.ts) on the server: its method and path,
 * the caller's token checked before anything else, and the request checked strictly against the
 * entry's schema. Handlers get the checked input and stay thin.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnySchema } from 'yup';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { idempotencyKeyPattern, type RequestOf, type RequestSchemas, type Route } from '../../contract/shared/route.ts';
import { type BodyCheck, checkBody } from '../../contract/validation.ts';
import { type CompanionClaims, verifyCompanionToken } from '../companionTokens.ts';
import type { Services } from '../services.ts';
import type { AccessClaims, RefreshUse, Sessions } from '../sessions.ts';
import { badRequest, bearerToken, deviceUuidOf, failedValidation, signInRequired } from './http.ts';

type RefreshSession = Extract<Awaited<ReturnType<Sessions['findRefreshToken']>>, { ok: true }>['row'];

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for access-token routes: the signed-in cardholder. */
    access: AccessClaims;
    /** Set for refresh-token routes: the live refresh token presented. */
    refreshSession: RefreshSession;
    /** Set with refreshSession: how it was presented (sessions.rotate needs it). */
    refreshUse: RefreshUse;
    /** Set for companion-token routes: the companion app's user. */
    companion: CompanionClaims;
    /** Set for money-moving routes (`idempotent` in the table): the Idempotency-Key as sent. */
    idempotencyKey: string;
  }
}

export type ServeOptions = {
  /**
   * How a request that breaks a rule (not a malformed one) is answered: 400 `{4, fieldErrors}`
   * (default), 400 `{2}` like a malformed one (sign-in, unlock: nothing to show per field).
   */
  brokenRule?: 'fieldErrors' | 'badRequest';
  /** GET /home's own query refuses a revoked session, saving a round trip (the hottest call). */
  familyCheckedByHandler?: boolean;
  bodyLimit?: number;
};

type Handler<Input> = (input: Input, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** `/config/{key}` as Fastify writes it: `/config/:key`. */
export const fastifyPath = (route: Route) => `${route.base}${route.path.replace(/\{(\w+)\}/g, ':$1')}`;

/** `schemas`: the feature's request schemas (contract/<feature>/schemas.ts), found by entry name. */
export function routeServer<Table>(app: FastifyInstance, { sessions, config }: Services, schemas: RequestSchemas<Table>) {
  const schemaOf = (route: Route) => (schemas as Record<string, AnySchema | null>)[route.name] ?? null;

  /**
   * An expired access token answers REFRESH_REQUIRED (the app asks for the unlock code); a missing,
   * forged or revoked one SIGN_IN_REQUIRED.
   */
  const requireAccess = (familyCheckedByHandler: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) return signInRequired(reply);
    const check = await sessions.checkAccessToken(token);
    if (!check.ok) {
      const statusCode = check.reason === 'expired' ? StatusCode.REFRESH_REQUIRED : StatusCode.SIGN_IN_REQUIRED;
      return reply.code(401).send({ statusCode });
    }
    if (!familyCheckedByHandler && (await sessions.isFamilyRevoked(check.claims.familyId))) return signInRequired(reply);
    request.access = check.claims;
  };

  /** The live refresh token presented as bearer, or 401 SIGN_IN_REQUIRED (expired, revoked family, spent). */
  const requireRefresh = async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = bearerToken(request);
    const device = deviceUuidOf(request);
    const found = presented ? await sessions.findRefreshToken(presented, device) : undefined;
    if (!presented || !found?.ok) return signInRequired(reply);
    request.refreshSession = found.row;
    request.refreshUse = { presented, device, successor: found.successor };
  };

  /**
   * The companion app's token for its user, or 401 INVALID_CREDENTIALS (missing, forged, expired); a
   * token sent and refused is `invalid_token` (RFC 6750 §3), one not sent only `Bearer`.
   */
  const requireCompanion = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const check = token ? await verifyCompanionToken(token, config.companionTokenSecret) : undefined;
    if (!check?.ok) {
      if (token) reply.header('WWW-Authenticate', 'Bearer error="invalid_token"');
      return reply.code(401).send({ statusCode: StatusCode.INVALID_CREDENTIALS });
    }
    request.companion = check.claims;
  };

  function guardOf(route: Route, options: ServeOptions) {
    if (route.tokenOptional) return undefined;
    if (route.caller === 'accessToken') return requireAccess(options.familyCheckedByHandler ?? false);
    if (route.caller === 'refreshToken') return requireRefresh;
    if (route.caller === 'companionToken') return requireCompanion;
    return undefined;
  }

  /** A money-moving call without a well-formed Idempotency-Key is a bad request: nothing is done. */
  const requireIdempotencyKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || !idempotencyKeyPattern.test(key)) return badRequest(reply);
    request.idempotencyKey = key;
  };

  function register(route: Route, options: ServeOptions, handle: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) {
    const guard = guardOf(route, options);
    app.route({
      method: route.method,
      url: fastifyPath(route),
      // The token first: a caller without one learns nothing about the body's rules.
      ...(guard ? { preValidation: guard } : {}),
      ...(route.idempotent ? { preHandler: requireIdempotencyKey } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      handler: handle,
    });
  }

  const inputOf = (route: Route, request: FastifyRequest): unknown => (route.method === 'GET' ? request.query : request.body);

  return {
    /** The entry's handler gets the input only when it is well formed and keeps every rule. */
    serve<R extends Route>(route: R, handler: Handler<RequestOf<R>>, options: ServeOptions = {}) {
      register(route, options, async (request, reply) => {
        const schema = schemaOf(route);
        if (!schema) return handler(null as RequestOf<R>, request, reply);
        const input = inputOf(route, request);
        if (options.brokenRule === 'badRequest') {
          // The value as sent; no body at all is an empty one (entries such as ordering a card take none),
          // so a call that needs fields is refused for them, never handed `undefined`. Stopped at the first
          // failure (every failure answers the same): collecting them all checked each of 20,000 items of
          // a batch far over its length, seconds of the event loop for one anonymous request.
          try {
            return await handler(schema.validateSync(input === undefined ? {} : input, { strict: true, abortEarly: true }) as RequestOf<R>, request, reply);
          } catch (error) {
            if (error instanceof Error && error.name === 'ValidationError') return badRequest(reply);
            throw error;
          }
        }
        const check = checkBody(schema as never, input);
        if (check.kind === 'malformed') return badRequest(reply);
        if (check.kind === 'invalid') return failedValidation(reply, check.fieldErrors);
        return handler(check.value as RequestOf<R>, request, reply);
      });
    },
    /** The handler answers broken rules itself (a malformed request is still 400 `{2}`). */
    serveChecked<R extends Route>(route: R, handler: Handler<Exclude<BodyCheck<RequestOf<R> & object>, { kind: 'malformed' }>>, options: ServeOptions = {}) {
      register(route, options, async (request, reply) => {
        const check = checkBody(schemaOf(route) as never, inputOf(route, request)) as BodyCheck<RequestOf<R> & object>;
        if (check.kind === 'malformed') return badRequest(reply);
        return handler(check, request, reply);
      });
    },
  };
}
