/** The card API's refusals as the card charts' guards read them. */
import type { CardRefusalReason } from '../../contract/cards/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

/** The answer is the card API's refusal for `reason` (403 `{3, reason}`): nothing was done. */
export const refusedFor = (answer: { statusCode: number } | undefined, reason: CardRefusalReason): boolean =>
  answer?.statusCode === StatusCode.NOT_ALLOWED && 'reason' in answer && answer.reason === reason;
