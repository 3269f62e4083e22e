/**
 * One route table entry per API call (spec §7): the server registers and validates from it, the
 * client's typed functions are made from it, and the OpenAPI document and docs/api.md are generated
 * from it. Request and answer types ride along as type parameters only. Each feature's request
 * schemas and one-line summaries sit beside its table (contract/<feature>/schemas.ts, one per entry,
 * checked complete by type), so the web app can use the table without loading yup or the docs text.
 */
import type { AnySchema } from 'yup';

/** An Idempotency-Key as it must be sent: 1 to 255 visible ASCII characters. */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/**
 * The EBT-Account-ID header (spec §7: sent on every call when known): the companion app's EBT account
 * id, which /register links the new account to.
 */
export const ebtAccountIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An id the app sends as a header (Fingerprint, Device-UUID): visible ASCII, as fetch sends any header
 * value only in Latin-1 and refuses the whole call otherwise.
 */
export const headerIdPattern = /^[\x21-\x7e]{1,128}$/;

/** The card API's versioned base; the content API has its own. */
export const cardApiBase = '/api/v1';
export const contentApiBase = '/cms';
export type ApiBase = typeof cardApiBase | typeof contentApiBase;

/**
 * Who may call: nobody in particular, the holder of a refresh token (unlock, unlock-code reset), of an
 * access token (a signed-in cardholder), or of the companion app's token for its user.
 */
export type Caller = 'anonymous' | 'refreshToken' | 'accessToken' | 'companionToken';

export type HttpStatus = 200 | 400 | 401 | 403 | 404 | 409 | 413 | 415 | 417 | 421 | 422 | 429 | 500 | 503;

export type Route<Request = unknown, Answer = unknown> = {
  /** The operation's name: the OpenAPI operationId. */
  name: string;
  method: 'GET' | 'POST';
  base: ApiBase;
  /** Under the base; a path parameter is written `{key}`. */
  path: string;
  caller: Caller;
  /** The caller's token is read when sent but not required: without a live one the call still answers. */
  tokenOptional?: true;
  /**
   * The call moves money: it needs an `Idempotency-Key` header (`idempotencyKeyPattern`), and the same
   * key again has one effect and answers the first result (400 `{2}` without a well-formed one).
   */
  idempotent?: true;
  /**
   * The statusCodes (spec §8, and /register's results) each HTTP status carries as a result of this call. Non-2xx statuses listed here
   * are expected (spec §7 "401 expected"): results, not failures. For the server's answer checks and the OpenAPI document only: the
   * app reads every answer by its statusCode, and its build leaves these out (vite.config.ts `routeAnswersServerOnly`), so write
   * them on one line.
   */
  answers: Partial<Record<HttpStatus, readonly number[]>>;
  /**
   * The 200 answer is a file of this media type (its bytes, not JSON); every other status is still
   * JSON with a statusCode. The client fetches such an entry with `download`.
   */
  file?: 'application/pdf';
  /** Type-only: never set at run time. */
  readonly types?: { request: Request; answer: Answer };
};

/** A feature's request schemas: the body (POST) or query (GET) of every entry, null when it takes none. */
export type RequestSchemas<Table> = { readonly [Name in keyof Table]: AnySchema | null };

/** A feature's one-line summaries, one per entry (kept out of the table so the web app does not ship them). */
export type RouteSummaries<Table> = { readonly [Name in keyof Table]: string };

export type RequestOf<R> = R extends { types?: { request: infer Request } } ? Request : never;
export type AnswerOf<R> = R extends { types?: { answer: infer Answer } } ? Answer : never;

/** A card API entry (the content API's give `base`). */
export function route<Request, Answer>(
  definition: Omit<Route<Request, Answer>, 'types' | 'base'> & { base?: ApiBase },
): Route<Request, Answer> {
  return { ...definition, base: definition.base ?? cardApiBase };
}

/** The entry's address as the browser calls it: base and path. */
export const urlOf = (route: Route, params: Record<string, string> = {}) => `${route.base}${fillPath(route.path, params)}`;

/** `/config/{key}` with `{key: 'faq'}` → `/config/faq` (each value URI-encoded). */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}
