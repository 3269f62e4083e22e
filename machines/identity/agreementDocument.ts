/**
 * Reading an agreement (E-Sign consent, Terms of use, Cardholder Agreement) before or after agreeing:
 * from the agreements step of registration and from Manage account. GET /agreement?kind&locale loads
 * its current text in the app's language; a failed load can be tried again; closing forgets it.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { AgreementDocument, AgreementDocumentAnswer, AgreementKind, AgreementLocale } from '../../contract/identity/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

export type AgreementDocumentContext = { kind: AgreementKind | null; locale: AgreementLocale; document: AgreementDocument | null };

export type AgreementDocumentEvent =
  | { type: 'user.open'; kind: AgreementKind; locale: AgreementLocale }
  | { type: 'user.retry' }
  | { type: 'user.close' };

/** `open` while the dialog shows, `busy` while the text loads, `failed` when it could not. */
export type AgreementDocumentTag = 'open' | 'busy' | 'failed';

export const agreementDocumentMachine = setup({
  types: {
    context: {} as AgreementDocumentContext,
    events: {} as AgreementDocumentEvent,
    tags: {} as AgreementDocumentTag,
  },
  guards: {
    isLoaded: (_, answer: AgreementDocumentAnswer) => answer.statusCode === StatusCode.SUCCESS && answer.agreement !== undefined,
  },
  actions: {
    choose: assign(({ event }) => (event.type === 'user.open' ? { kind: event.kind, locale: event.locale, document: null } : {})),
    store: assign((_, answer: AgreementDocumentAnswer) => ({ document: answer.agreement ?? null })),
    forget: assign({ kind: null, document: null }),
  },
  actors: {
    loadAgreement: fromPromise<AgreementDocumentAnswer, { kind: AgreementKind; locale: AgreementLocale }>(async () => ({
      statusCode: StatusCode.UNEXPECTED_ERROR,
    })),
  },
}).createMachine({
  id: 'agreementDocument',
  context: { kind: null, locale: 'en', document: null },
  initial: 'closed',
  states: {
    closed: { on: { 'user.open': { target: 'loading', actions: 'choose' } } },
    loading: {
      tags: ['open', 'busy'],
      on: { 'user.close': { target: 'closed', actions: 'forget' } },
      invoke: {
        id: 'loadAgreement',
        src: 'loadAgreement',
        input: ({ context }) => ({ kind: context.kind ?? 'terms', locale: context.locale }),
        onDone: [
          { guard: { type: 'isLoaded', params: ({ event }) => event.output }, target: 'shown', actions: { type: 'store', params: ({ event }) => event.output } },
          { target: 'failed' },
        ],
        onError: { target: 'failed' },
      },
    },
    shown: { tags: ['open'], on: { 'user.close': { target: 'closed', actions: 'forget' } } },
    failed: {
      tags: ['open', 'failed'],
      on: { 'user.retry': { target: 'loading' }, 'user.close': { target: 'closed', actions: 'forget' } },
    },
  },
});
