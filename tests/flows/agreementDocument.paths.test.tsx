/** Generated path tests over the agreement reader, replayed on Manage account through the real app and router. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agreementDocumentMachine } from '../../machines/identity/agreementDocument.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { active, renderApp } from '../support/renderApp.tsx';

const agreementPath = '/api/v1/agreement';
const terms = {
  kind: 'terms',
  version: '2026-11-01',
  locale: 'en',
  title: 'Terms of use',
  sections: [{ heading: 'Using the Providers app', paragraphs: ['These terms cover your use of the app.'] }],
};
const events = [
  { type: 'user.open', kind: 'terms', locale: 'en' },
  { type: 'user.retry' },
  { type: 'user.close' },
  { type: 'xstate.done.actor.loadAgreement', output: { statusCode: 0, agreement: terms } },
  { type: 'xstate.done.actor.loadAgreement', output: { statusCode: 5 } },
  { type: 'xstate.error.actor.loadAgreement', error: new Error('no statusCode') },
];

const run = generatePaths(agreementDocumentMachine, events);
type Ctx = Awaited<ReturnType<typeof renderApp>>;
const dialog = () => document.querySelector<HTMLDialogElement>('dialog.agreement-dialog')!;

describe('agreement reader chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(agreementDocumentMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(minimalCover(agreementDocumentMachine, run).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          const app = await renderApp('/manage-account', active);
          await screen.findByRole('heading', { level: 2, name: 'Agreements and fees' });
          return app;
        },
        events: {
          'user.open': async ({ user }) => user.click(screen.getByRole('button', { name: 'Read the Terms of use' })),
          'user.retry': async ({ user }) => user.click(within(dialog()).getByRole('button', { name: 'Try again' })),
          'user.close': async ({ user }) => user.click(within(dialog()).getByRole('button', { name: 'Close' })),
          'xstate.done.actor.loadAgreement': async ({ cardApi }, event) => {
            const answer = event.output as { statusCode: number };
            await waitFor(() => expect(cardApi.isWaiting(agreementPath)).toBe(true));
            cardApi.answer(agreementPath, answer, answer.statusCode === 0 ? 200 : 500);
          },
          'xstate.error.actor.loadAgreement': async ({ cardApi }) => {
            await waitFor(() => expect(cardApi.isWaiting(agreementPath)).toBe(true));
            cardApi.fail(agreementPath);
          },
        },
        states: [
          {
            when: (s) => s.matches('closed'),
            then: async () => {
              await waitFor(() => expect((dialog() as HTMLDialogElement).open).toBe(false));
              // The fee disclosure is there to read, whatever the dialog does.
              expect(screen.getByRole('heading', { name: 'Fees for your Providers account' })).toBeTruthy();
              expect(screen.getAllByRole('row', { name: 'Monthly fee $0.00' })[0]).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('loading'),
            then: async ({ cardApi }) => {
              await waitFor(() => expect((dialog() as HTMLDialogElement).open).toBe(true));
              await waitFor(() => expect(cardApi.isWaiting(agreementPath)).toBe(true));
              expect(cardApi.requests.at(-1)).toMatchObject({ path: agreementPath, search: '?kind=terms&locale=en' });
              expect(within(dialog()).getByText('Loading…')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('shown'),
            then: async () => {
              expect(await within(dialog()).findByRole('heading', { level: 2, name: 'Terms of use' })).toBeTruthy();
              expect(within(dialog()).getByText('Version 2026-11-01')).toBeTruthy();
              expect(within(dialog()).getByText('These terms cover your use of the app.')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('failed'),
            then: async () => {
              expect(await within(dialog()).findByText('There was an unexpected error. Please try again.')).toBeTruthy();
              expect(within(dialog()).getByRole('button', { name: 'Try again' })).toBeTruthy();
            },
          },
        ],
      });
    },
    30_000,
  );
});
