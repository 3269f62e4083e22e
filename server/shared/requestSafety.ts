/**
 * Input no handler should ever see, refused for every route in one place with 400 `{2}`: a JSON body
 * that is not UTF-8 (RFC 8259 §8.1: JSON exchanged between systems MUST be UTF-8, whatever charset the
 * content type names; decoded anyway, its broken bytes would be stored as U+FFFD), JSON nested deeper
 * than any request of the contract, and text PostgreSQL cannot store or that is not text at all (NUL
 * characters, lone UTF-16 surrogates), in the body, the query or the path.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

/** The deepest request of the contract is 3 levels (registration's address); events' props are 2. */
export const maxJsonDepth = 8;

// A NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
// eslint-disable-next-line no-control-regex -- NUL is exactly what it must find
const unstorableText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a parsed value is safe to hand on: bounded depth, every string and key storable text. */
export function isSafeInput(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !unstorableText.test(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth >= maxJsonDepth) return false;
  for (const [key, item] of Object.entries(value)) {
    if (unstorableText.test(key) || !isSafeInput(item, depth + 1)) return false;
  }
  return true;
}

class UnsafeInputError extends Error {
  statusCode = 400;
}

export function registerRequestSafety(app: FastifyInstance): void {
  // Fastify's own JSON parser (prototype poisoning refused), then the checks above.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // No content is no body (RFC 9110 §8.6), whatever Content-Type says: as a POST sent without one.
    if ((body as Buffer).length === 0) return done(null, undefined);
    if (!isUtf8(body as Buffer)) return done(new UnsafeInputError('JSON that is not UTF-8'), undefined);
    parseJson(request, (body as Buffer).toString('utf8'), (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      if (!isSafeInput(value)) return done(new UnsafeInputError('unsafe JSON'), undefined);
      done(null, value);
    });
  });
  // Every call takes JSON only: a text body is another media type (415), not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isSafeInput(request.query) || !isSafeInput(request.params)) {
      return reply.code(400).send({ statusCode: StatusCode.INVALID_PARAMETERS });
    }
  });
}
