/** Answer shapes every feature shares (spec §7, §8): each answer carries a statusCode. */
import type { StatusCode } from './statusCodes.ts';

export type StatusAnswer = { statusCode: StatusCode };

/**
 * The one "too many" answer: 429 `{201, retryAfterSeconds}` with a Retry-After header, for every limit
 * of the API (texted codes, wrong codes, account lookups, SSN checks).
 */
export type TooManyAnswer = { statusCode: typeof StatusCode.INVALID_MFA_LIMIT; retryAfterSeconds: number };
/** An answer that may be the "too many" one: `retryAfterSeconds` is present then. */
export type MayBeTooMany = Partial<Pick<TooManyAnswer, 'retryAfterSeconds'>>;

/** Field errors: the first failing rule's message key per field, dotted for nested ones (`addressLegal.zip`). */
export type FieldErrors = Record<string, string>;
/** 400 `{4, fieldErrors}`: a rule failed. */
export type FieldErrorsAnswer = { statusCode: typeof StatusCode.FAILED_VALIDATION; fieldErrors: FieldErrors };
/** An answer that may be the 400 `{4, fieldErrors}` one: `fieldErrors` is present then. */
export type MayHaveFieldErrors = Partial<Pick<FieldErrorsAnswer, 'fieldErrors'>>;

/** What a sign-in, an unlock or a registration hands the app: the session's two tokens. */
export type SessionTokens = { access: string; refresh: string; isInternal: boolean };
