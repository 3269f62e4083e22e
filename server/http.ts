/** Shared HTTP plumbing: statusCode answers, yup body validation, bearer tokens, the access guard. */
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { AnySchema } from 'yup';
import { StatusCode } from '../contract/shared/statusCodes.ts';
import type { AccessClaims, Sessions } from './sessions.ts';

/** Bodies are checked strictly (no casting): a number where a string belongs is a bad request. */
export const yupValidatorCompiler: FastifySchemaCompiler<AnySchema> = ({ schema }) => (data) => {
  try {
    return { value: schema.validateSync(data, { strict: true, abortEarly: false }) };
  } catch (error) {
    return { error: error as Error };
  }
};

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  const token = header.slice('Bearer '.length).trim();
  return token.length > 0 && token.length < 4096 ? token : undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    access: AccessClaims;
  }
}

/**
 * preHandler for account calls. An expired access token answers REFRESH_REQUIRED (the app asks for
 * the unlock code); a missing, forged or revoked one answers SIGN_IN_REQUIRED.
 * `familyCheckedByHandler`: only for a handler whose own query refuses a revoked session (GET /home,
 * the hottest call, saves a round trip that way); every other call checks here.
 */
export function requireAccess(sessions: Sessions, options: { familyCheckedByHandler?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    const check = await sessions.checkAccessToken(token);
    if (!check.ok) {
      const statusCode = check.reason === 'expired' ? StatusCode.REFRESH_REQUIRED : StatusCode.SIGN_IN_REQUIRED;
      return reply.code(401).send({ statusCode });
    }
    if (!options.familyCheckedByHandler && (await sessions.isFamilyRevoked(check.claims.familyId))) {
      return reply.code(401).send({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    }
    request.access = check.claims;
  };
}
