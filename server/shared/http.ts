/** Shared HTTP plumbing: yup validation, bearer tokens, and the answers every feature sends alike. */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { AnySchema } from 'yup';
import type { FieldErrors, TooManyAnswer } from '../../contract/shared/answers.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

/** Bodies are checked strictly (no casting): a number where a string belongs is a bad request. */
export const yupValidatorCompiler: FastifySchemaCompiler<AnySchema> = ({ schema }) => (data) => {
  try {
    return { value: schema.validateSync(data, { strict: true, abortEarly: false }) };
  } catch (error) {
    return { error: error as Error };
  }
};

/** The token of a `Bearer` header (RFC 6750 §2.1), whose scheme is matched without case (RFC 9110 §11.1: `bearer` too). */
export function bearerOf(header: string | undefined): string | undefined {
  const token = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  return token && token.length < 4096 ? token : undefined;
}

export const bearerToken = (request: FastifyRequest) => bearerOf(request.headers.authorization);

/** A request's path, percent-decoded (as is, when it does not decode): as the router reads it. */
export function decodedPath(url: string): string {
  const path = url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The Device-UUID header the app sends with every call; absent or empty is null. */
export function deviceUuidOf(request: FastifyRequest): string | null {
  return String(request.headers['device-uuid'] ?? '').slice(0, 64) || null;
}

/**
 * The time the app says something happened; an unreadable one, or one outside 1970–9999 (a wrong
 * clock, or a year PostgreSQL cannot store), becomes the time it arrived.
 */
export function reportedTime(at: string): Date {
  const time = new Date(at);
  const year = time.getUTCFullYear();
  return Number.isNaN(time.getTime()) || year < 1970 || year > 9999 ? new Date() : time;
}

export const badRequest = (reply: FastifyReply) => reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS });

export const failedValidation = (reply: FastifyReply, fieldErrors: FieldErrors) =>
  reply.code(400).send({ statusCode: StatusCode.FAILED_VALIDATION, fieldErrors });

/** The one "too many" answer: 429 `{201, retryAfterSeconds}`, the wait in Retry-After too. */
export const tooMany = (reply: FastifyReply, retryAfterSeconds: number) => {
  const answer: TooManyAnswer = { statusCode: StatusCode.INVALID_MFA_LIMIT, retryAfterSeconds };
  return reply.code(429).header('Retry-After', String(retryAfterSeconds)).send(answer);
};

export const signInRequired = (reply: FastifyReply) => reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });

/** The answers that refuse the token itself (expired; missing, forged or revoked), as serialized. */
const refusedToken = new RegExp(`"statusCode":(${StatusCode.REFRESH_REQUIRED}|${StatusCode.SIGN_IN_REQUIRED})[,}]`);

/**
 * Every 401 says how to authenticate (RFC 9110 §11.6.1: MUST): with a bearer token, and
 * `invalid_token` when the token sent was refused itself (RFC 6750 §3), not when it was good and
 * something else was wrong (an unlock code, a password): a client would drop a good token. One hook,
 * as 401s come from the token guards, sign-in, the unlock code and the SSN check.
 */
export function registerAuthChallenges(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 401 || reply.hasHeader('www-authenticate')) return;
    // Only a bearer token sent (a malformed one too) can be the one refused: another scheme (Basic), or
    // the scheme with no token, gets no error code (RFC 6750 §3.1).
    const bearerSent = /^bearer\s+\S/i.test(request.headers.authorization ?? '');
    const tokenRefused = bearerSent && typeof payload === 'string' && refusedToken.test(payload);
    reply.header('WWW-Authenticate', tokenRefused ? 'Bearer error="invalid_token"' : 'Bearer');
  });
}
