/**
 * Activate a physical card (spec §2 /activate/:step?, §3 activation form, §4 activation status
 * INPUTTING → PROCESSING → SUCCESS | FAILURE, §5 card expiry and last 4, §7 POST /verify/card-last-four
 * then POST /activate-card; contract/cards/types.ts).
 *
 * The form (step 1) is the last 4 digits and the expiry (MM/YY) printed on the card, both checked by
 * the shared rules (contract/cards/rules.ts activationChecks) before anything is sent. The last 4 digits are
 * verified first, then the card is activated with both; the server counts wrong tries in its database.
 * Activated → SUCCESS (step 2); activating a replacement stops the card it replaces (the server does it).
 *
 * How each failure ends:
 * - a field breaks its rule → `inputting.invalid`, nothing sent;
 * - 403 `{3, lastFourMismatch, attemptsLeft}` (from either call) → `inputting.lastFourMismatch`, its own
 *   message with the tries left;
 * - 403 `{3, expiryMismatch, attemptsLeft}` → `inputting.expiryMismatch`: the expiry field is cleared
 *   (spec §4), its own message with the tries left;
 * - 429 `{201, retryAfterSeconds}` → `waiting` until the server's deadline, then INPUTTING again;
 * - 403 `{3, notShipped}` → `inputting.notShipped`: the card cannot be in the cardholder's hands yet;
 * - 403 `{3, noPendingCard}` → `nothingToActivate` (already active, or never ordered);
 * - any other answer (5, another refusal) → FAILURE ("Tap Activate to go back and try again"), whose
 *   Activate is the reset back to INPUTTING, with what was sent in the form again;
 * - no answer (the app's error modal has said so, or re-authentication was given up) → INPUTTING, as
 *   typed (spec §4: a network error returns to INPUTTING).
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { ActivationAnswer, ActivationForm, Card, CardRefusal } from '../../contract/cards/types.ts';
import type { StatusAnswer, TooManyAnswer } from '../../contract/shared/answers.ts';
import { activationChecks, type CardValidationMessage } from '../../contract/cards/rules.ts';
import { fieldErrors } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { refusedFor } from './refusals.ts';
import { retryAtOf, untilRetry } from '../shared/serverWait.ts';

/** The route's steps (spec §2 /activate/:step?). */
export type ActivationStep = 1 | 2;

export type ActivationErrors = Partial<Record<keyof ActivationForm, CardValidationMessage>>;

export type ActivationContext = {
  /** What was sent (the last 4 digits and expiry are printed on the card; neither is a secret the API keeps from the cardholder). */
  form: ActivationForm;
  fieldErrors: ActivationErrors;
  /** After a mismatch: wrong tries left before the server's wait. */
  attemptsLeft: number | null;
  /** The end of the server's wait after too many tries (ms since the epoch). */
  retryAt: number | null;
  /** The card activated. */
  card: Card | null;
};

export type ActivationEvent = ({ type: 'user.submit' } & ActivationForm) | { type: 'user.reset' };

export type VerifyLastFourAnswer = StatusAnswer | CardRefusal | TooManyAnswer;
type CardCallAnswer = VerifyLastFourAnswer | ActivationAnswer | undefined;

/**
 * What views ask the chart: `busy` while PROCESSING; why the form is back (`invalid`, `lastFourMismatch`,
 * `expiryMismatch`, `notShipped`); `waiting`; `activated` (SUCCESS), `failed` (FAILURE), `nothingToActivate`.
 */
export type ActivationTag =
  | 'busy'
  | 'invalid'
  | 'lastFourMismatch'
  | 'expiryMismatch'
  | 'notShipped'
  | 'waiting'
  | 'activated'
  | 'failed'
  | 'nothingToActivate';

const formOf = (event: ActivationEvent): ActivationForm =>
  event.type === 'user.submit' ? { lastFourCard: event.lastFourCard.trim(), expiry: event.expiry.trim() } : { lastFourCard: '', expiry: '' };

const answerOf = ({ event }: { event: { output: CardCallAnswer } }) => event.output;

/** The answers both calls may get besides their success: a mismatch of the last 4, the server's wait, a card not shipped or nothing to activate. */
const refusals = [
  {
    guard: { type: 'isLastFourMismatch', params: answerOf },
    target: '#activation.inputting.lastFourMismatch',
    actions: { type: 'countAttempts', params: answerOf },
  },
  { guard: { type: 'isTooMany', params: answerOf }, target: '#activation.waiting', actions: { type: 'storeRetryAt', params: answerOf } },
  { guard: { type: 'isNotShipped', params: answerOf }, target: '#activation.inputting.notShipped' },
  { guard: { type: 'isNothingToActivate', params: answerOf }, target: '#activation.nothingToActivate' },
] as const;

export const activationMachine = setup({
  types: {
    context: {} as ActivationContext,
    events: {} as ActivationEvent,
    tags: {} as ActivationTag,
  },
  delays: {
    untilRetry,
  },
  guards: {
    /** The last 4 digits or the expiry break the shared rule (4 digits; MM/YY, month 1-12, not past). */
    isFormInvalid: ({ event }) => Object.keys(fieldErrors<ActivationForm, CardValidationMessage>(activationChecks, formOf(event))).length > 0,
    isSuccess: (_, answer: CardCallAnswer) => answer?.statusCode === StatusCode.SUCCESS,
    isActivated: (_, answer: CardCallAnswer) => answer?.statusCode === StatusCode.SUCCESS && 'card' in answer,
    isLastFourMismatch: (_, answer: CardCallAnswer) => refusedFor(answer, 'lastFourMismatch'),
    isExpiryMismatch: (_, answer: CardCallAnswer) => refusedFor(answer, 'expiryMismatch'),
    isNotShipped: (_, answer: CardCallAnswer) => refusedFor(answer, 'notShipped'),
    isNothingToActivate: (_, answer: CardCallAnswer) => refusedFor(answer, 'noPendingCard'),
    isTooMany: (_, answer: CardCallAnswer) => answer?.statusCode === StatusCode.INVALID_MFA_LIMIT,
  },
  actions: {
    showProblems: assign(({ event }) => ({ fieldErrors: fieldErrors<ActivationForm, CardValidationMessage>(activationChecks, formOf(event)) as ActivationErrors })),
    keepForm: assign(({ event }) => ({ form: formOf(event), fieldErrors: {}, attemptsLeft: null })),
    countAttempts: assign((_, answer: CardCallAnswer) => ({
      attemptsLeft: answer && 'attemptsLeft' in answer ? (answer.attemptsLeft ?? null) : null,
    })),
    storeRetryAt: assign((_, answer: CardCallAnswer) => ({ retryAt: retryAtOf(answer && 'retryAfterSeconds' in answer ? answer : undefined) })),
    clearRetryAt: assign({ retryAt: null }),
    forgetExpiry: assign(({ context }) => ({ form: { ...context.form, expiry: '' } })),
    storeCard: assign((_, answer: CardCallAnswer) => ({ card: answer && 'card' in answer ? answer.card : null })),
    clearProblems: assign({ fieldErrors: {}, attemptsLeft: null }),
    /** Supplied by the app: empty the expiry field (spec §4: a wrong expiry clears it) and put the cursor there. */
    clearExpiryField: () => {},
  },
  actors: {
    verifyCardLastFour: fromPromise<VerifyLastFourAnswer, { lastFourCard: string }>(async () => {
      throw new Error('verifyCardLastFour not provided');
    }),
    activateCard: fromPromise<ActivationAnswer, ActivationForm>(async () => {
      throw new Error('activateCard not provided');
    }),
  },
}).createMachine({
  id: 'activation',
  context: { form: { lastFourCard: '', expiry: '' }, fieldErrors: {}, attemptsLeft: null, retryAt: null, card: null },
  initial: 'inputting',
  states: {
    /** INPUTTING: the form; its substates say why it is back. */
    inputting: {
      initial: 'idle',
      on: {
        'user.submit': [
          { guard: 'isFormInvalid', target: '.invalid', actions: 'showProblems' },
          { target: 'processing', actions: 'keepForm' },
        ],
      },
      states: {
        idle: {},
        invalid: { tags: ['invalid'] },
        lastFourMismatch: { tags: ['lastFourMismatch'] },
        expiryMismatch: { tags: ['expiryMismatch'], entry: ['forgetExpiry', 'clearExpiryField'] },
        notShipped: { tags: ['notShipped'] },
      },
    },
    /** PROCESSING: the last 4 digits checked, then the card activated. */
    processing: {
      tags: ['busy'],
      initial: 'verifyingLastFour',
      states: {
        verifyingLastFour: {
          invoke: {
            id: 'verifyCardLastFour',
            src: 'verifyCardLastFour',
            input: ({ context }) => ({ lastFourCard: context.form.lastFourCard }),
            onDone: [
              { guard: { type: 'isSuccess', params: answerOf }, target: 'activating' },
              ...refusals,
              { target: '#activation.failure' },
            ],
            onError: { target: '#activation.inputting' },
          },
        },
        activating: {
          invoke: {
            id: 'activateCard',
            src: 'activateCard',
            input: ({ context }) => context.form,
            onDone: [
              { guard: { type: 'isActivated', params: answerOf }, target: '#activation.success', actions: { type: 'storeCard', params: answerOf } },
              {
                guard: { type: 'isExpiryMismatch', params: answerOf },
                target: '#activation.inputting.expiryMismatch',
                actions: { type: 'countAttempts', params: answerOf },
              },
              ...refusals,
              { target: '#activation.failure' },
            ],
            onError: { target: '#activation.inputting' },
          },
        },
      },
    },
    /** Too many wrong tries: the server's wait, then the form again. */
    waiting: {
      tags: ['waiting'],
      after: { untilRetry: { target: 'inputting', actions: 'clearRetryAt' } },
    },
    /** SUCCESS (step 2): the card works. */
    success: { type: 'final', tags: ['activated'] },
    /** FAILURE: "Sorry, we weren't able to activate your Providers Card. Tap Activate to go back and try again." */
    failure: {
      tags: ['failed'],
      on: { 'user.reset': { target: 'inputting', actions: 'clearProblems' } },
    },
    /** No card awaits activation (already activated, perhaps on another phone): nothing to do here. */
    nothingToActivate: { type: 'final', tags: ['nothingToActivate'] },
  },
});

/** The route's step (spec §2 /activate/:step?): the form is step 1, the activated card step 2. */
export function stepOfActivation(snapshot: { hasTag: (tag: ActivationTag) => boolean }): ActivationStep {
  return snapshot.hasTag('activated') ? 2 : 1;
}
