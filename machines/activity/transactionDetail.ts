/**
 * One transaction's detail (spec §2 /transactions/detail, §3: date, time and location). Opened from a
 * list the row is already known and shown at once, and asked for again beside it (GET /transaction):
 * the list may be minutes old, and a hold may have settled or been released since, so the detail shows
 * the server's answer when it comes (the list's copy stays if it cannot be had, said to be unchecked,
 * with a retry: offline it would pass for current), and hands it to the
 * list (`shareTransaction`, null when it is gone), whose row then shows it too, or goes. Opened from a link or
 * after a reload it is asked for. One that is not the cardholder's, or does not exist (404 {3}), is "not found", as
 * is an id no transaction can have (not a UUID: a link cut short), without asking; any other failure
 * keeps the screen with a retry.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import { uuidPattern } from '../../contract/rules.ts';
import type { Transaction, TransactionAnswer, TransactionDetail } from '../../contract/activity/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

export type TransactionDetailInput = { id: string; known: Transaction | null };
export type TransactionDetailContext = { id: string; transaction: TransactionDetail | null };
export type TransactionDetailEvent = { type: 'user.retry' };

/** What views ask the chart. */
export type TransactionDetailTag = 'busy' | 'failed' | 'notFound' | 'unchecked';

export const transactionDetailMachine = setup({
  types: {
    input: {} as TransactionDetailInput,
    context: {} as TransactionDetailContext,
    events: {} as TransactionDetailEvent,
    tags: {} as TransactionDetailTag,
  },
  actions: {
    storeTransaction: assign({ transaction: (_, answer: TransactionAnswer) => answer.transaction }),
    /** What the server now says of the list's row, null when it is gone (supplied by the screen: the activity chart's `transaction.seen`). */
    shareTransaction: (_, _seen: Transaction | null) => {},
    forgetTransaction: assign({ transaction: null }),
  },
  guards: {
    isKnown: ({ context }) => context.transaction !== null,
    isMalformed: ({ context }) => !uuidPattern.test(context.id),
    isFound: (_, answer: TransactionAnswer) => answer.statusCode === StatusCode.SUCCESS,
    isNotFound: (_, answer: TransactionAnswer) => answer.statusCode === StatusCode.NOT_ALLOWED,
  },
  actors: {
    /** `quiet`: the list's copy is on the screen, so a failure is not worth the error modal. */
    getTransaction: fromPromise<TransactionAnswer, { id: string; quiet: boolean }>(async () => {
      throw new Error('getTransaction not provided');
    }),
  },
}).createMachine({
  id: 'transactionDetail',
  context: ({ input }) => ({ id: input.id, transaction: input.known }),
  initial: 'opening',
  states: {
    opening: { always: [{ guard: 'isKnown', target: 'refreshing' }, { guard: 'isMalformed', target: 'notFound' }, { target: 'loading' }] },
    // Busy while the list's copy is checked (aria-busy): after a retry, until the answer comes.
    refreshing: {
      tags: ['busy'],
      invoke: {
        id: 'getTransaction',
        src: 'getTransaction',
        input: ({ context }) => ({ id: context.id, quiet: true }),
        onDone: [
          {
            guard: { type: 'isFound', params: ({ event }) => event.output },
            target: 'shown',
            actions: [
              { type: 'storeTransaction', params: ({ event }) => event.output },
              { type: 'shareTransaction', params: ({ event }) => event.output.transaction },
            ],
          },
          // Gone since the list was read (a hold released or timed out): said, not shown as it was.
          {
            guard: { type: 'isNotFound', params: ({ event }) => event.output },
            target: 'notFound',
            actions: ['forgetTransaction', { type: 'shareTransaction', params: null }],
          },
          { target: 'unchecked' },
        ],
        onError: 'unchecked',
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'getTransaction',
        src: 'getTransaction',
        input: ({ context }) => ({ id: context.id, quiet: false }),
        onDone: [
          {
            guard: { type: 'isFound', params: ({ event }) => event.output },
            target: 'shown',
            actions: [
              { type: 'storeTransaction', params: ({ event }) => event.output },
              { type: 'shareTransaction', params: ({ event }) => event.output.transaction },
            ],
          },
          { guard: { type: 'isNotFound', params: ({ event }) => event.output }, target: 'notFound' },
          { target: 'failed' },
        ],
        onError: 'failed',
      },
    },
    shown: {},
    /** The list's copy, which the card API could not confirm: shown as it is, said so, with a retry. */
    unchecked: { tags: ['unchecked'], on: { 'user.retry': 'refreshing' } },
    notFound: { tags: ['notFound'] },
    failed: { tags: ['failed'], on: { 'user.retry': 'loading' } },
  },
});
