/**
 * Monthly statements (spec §2 /statements, §7 GET /statements): the list of months, and each month's
 * PDF downloaded on request (GET /statement).
 *
 * Opening the screen loads the list. A failed load is only reported (spec §8 "Statement load failure
 * is only reported": the app's error reporter, never the generic error modal) and the screen says the
 * statements could not be loaded, with a retry. An account with no month yet (no account at all) is
 * `empty`.
 *
 * Downloading a month's statement asks the server for its PDF (`downloadStatement`) and then saves it
 * (`saveStatement`, supplied by the app: the browser's download of the file). One download at a time;
 * a failed one says so for its month, with a retry of the same month; another month can be asked for
 * after any download has ended.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../shared/setup.ts';
import type { Statement, StatementsAnswer } from '../../contract/statements/types.ts';

export type StatementsContext = {
  statements: Statement[];
  /** The month being downloaded, or the last one downloaded or that failed ('YYYY-MM'); null before any. */
  downloadMonth: string | null;
};

export type StatementsEvent = { type: 'user.retry' } | { type: 'user.download'; month: string };

/**
 * What views ask the chart: the list is on its way (`busy`), did not load (`failed`), has no month
 * (`empty`); a PDF is on its way (`downloading`), was saved (`downloaded`) or was not (`downloadFailed`).
 */
export type StatementsTag = 'busy' | 'failed' | 'empty' | 'downloading' | 'downloaded' | 'downloadFailed';

export const statementsMachine = setup({
  types: {
    context: {} as StatementsContext,
    events: {} as StatementsEvent,
    tags: {} as StatementsTag,
  },
  actions: {
    storeStatements: assign((_, answer: StatementsAnswer) => ({ statements: answer.statements })),
    chooseMonth: assign((_, month: string) => ({ downloadMonth: month })),
    /** Spec §8: a failed load is reported, not shown in the error modal (supplied by the app). */
    reportLoadFailure: (_, _error: unknown) => {},
    /** Hands the PDF to the browser as a file download (supplied by the app). */
    saveStatement: (_, _download: { month: string; file: Blob }) => {},
  },
  guards: {
    hasNoMonth: (_, answer: StatementsAnswer) => answer.statements.length === 0,
  },
  actors: {
    getStatements: fromPromise<StatementsAnswer>(async () => {
      throw new Error('getStatements not provided');
    }),
    downloadStatement: fromPromise<Blob, { month: string }>(async () => {
      throw new Error('downloadStatement not provided');
    }),
  },
}).createMachine({
  id: 'statements',
  context: { statements: [], downloadMonth: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'getStatements',
        src: 'getStatements',
        onDone: [
          {
            guard: { type: 'hasNoMonth', params: ({ event }) => event.output },
            target: 'empty',
            actions: { type: 'storeStatements', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'storeStatements', params: ({ event }) => event.output } },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'reportLoadFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    failed: {
      tags: ['failed'],
      on: { 'user.retry': 'loading' },
    },
    empty: { tags: ['empty'] },
    /** The months are shown; each can be downloaded. */
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'user.download': { target: 'downloading', actions: { type: 'chooseMonth', params: ({ event }) => event.month } } },
        },
        downloading: {
          tags: ['downloading'],
          invoke: {
            id: 'downloadStatement',
            src: 'downloadStatement',
            input: ({ context }) => ({ month: context.downloadMonth! }),
            onDone: {
              target: 'downloaded',
              actions: { type: 'saveStatement', params: ({ context, event }) => ({ month: context.downloadMonth!, file: event.output }) },
            },
            onError: 'downloadFailed',
          },
        },
        downloaded: {
          tags: ['downloaded'],
          on: { 'user.download': { target: 'downloading', actions: { type: 'chooseMonth', params: ({ event }) => event.month } } },
        },
        downloadFailed: {
          tags: ['downloadFailed'],
          on: {
            'user.retry': 'downloading',
            'user.download': { target: 'downloading', actions: { type: 'chooseMonth', params: ({ event }) => event.month } },
          },
        },
      },
    },
  },
});

/** Where the download of `downloadMonth` is: on its way, saved, failed, or none asked for (null). */
export type DownloadStatus = 'downloading' | 'downloaded' | 'failed' | null;

/** The download status of a snapshot (views ask this, not the chart's states). */
export const downloadStatusOf = (snapshot: { hasTag: (tag: StatementsTag) => boolean }): DownloadStatus =>
  snapshot.hasTag('downloading') ? 'downloading' : snapshot.hasTag('downloaded') ? 'downloaded' : snapshot.hasTag('downloadFailed') ? 'failed' : null;
