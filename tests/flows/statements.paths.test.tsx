/**
 * Generated path tests over the statements chart (the list, its failure only reported, a month's PDF
 * downloaded or not), replayed against the real app and router.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Statement, StatementsAnswer } from '../../contract/statements/types.ts';
import { statementsMachine } from '../../machines/statements/statements.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { active, renderApp } from '../support/renderApp.tsx';
import { pressTryAgain } from '../support/tryAgain.ts';

const statementsPath = '/api/v1/statements';
const statementPath = '/api/v1/statement';

const november: Statement = { month: '2026-11', openingBalance: 100000, closingBalance: 123456, credits: 48000, debits: 24544, inProgress: true, onHold: 1240 };
const october: Statement = { month: '2026-10', openingBalance: 0, closingBalance: 100000, credits: 120000, debits: 20000, inProgress: false, onHold: 0 };
const list: StatementsAnswer = { statusCode: 0, statements: [november, october] };
const none: StatementsAnswer = { statusCode: 0, statements: [] };
const pdfBytes = new TextEncoder().encode('%PDF-1.7 a statement');

const events = [
  { type: 'xstate.done.actor.getStatements', output: list },
  { type: 'xstate.done.actor.getStatements', output: none },
  { type: 'xstate.error.actor.getStatements', error: new Error('no statusCode') },
  { type: 'user.retry' },
  { type: 'user.download', month: '2026-11' },
  { type: 'xstate.done.actor.downloadStatement', output: new Blob([pdfBytes], { type: 'application/pdf' }) },
  { type: 'xstate.error.actor.downloadStatement', error: new Error('no statusCode') },
];

const run = generatePaths(statementsMachine, events);
type Ctx = Awaited<ReturnType<typeof renderApp>>;

/** What the app handed the browser to save: the file name and the object URL, per download. */
const saved: { name: string; url: string }[] = [];
const objectUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };

beforeAll(() => {
  // jsdom has no object URLs and cannot follow a download link: record what would be saved.
  URL.createObjectURL = () => 'blob:http://app.test/statement';
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, url: this.href });
  });
});
afterAll(() => {
  Object.assign(URL, objectUrls);
});

const downloadButton = () => screen.getByRole('button', { name: 'Download PDF for November 2026' });
const noErrorModal = ({ session }: Ctx) => expect(session.getSnapshot().hasTag('errorModalOpen')).toBe(false);

describe('statements chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(statementsMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(minimalCover(statementsMachine, run).map((path) => [describePath(path), path] as const))('path %s', async (_name, path) => {
    saved.length = 0;
    await replayPath<Ctx>(path, {
      start: () => renderApp('/statements', active),
      events: {
        'xstate.done.actor.getStatements': async ({ cardApi }, event) => {
          await waitFor(() => expect(cardApi.isWaiting(statementsPath)).toBe(true));
          cardApi.answer(statementsPath, event.output);
        },
        'xstate.error.actor.getStatements': async ({ cardApi }) => {
          await waitFor(() => expect(cardApi.isWaiting(statementsPath)).toBe(true));
          cardApi.fail(statementsPath);
        },
        'user.retry': async ({ user }) =>
          // A month's download: its Download PDF takes the focus; the list's: the heading.
          pressTryAgain(user, (button) => {
            const month = button.closest('li');
            return month ? within(month).getByRole('button', { name: /^Download PDF/ }) : screen.getByRole('heading', { level: 1 });
          }),
        'user.download': async ({ user }) => {
          await waitFor(() => expect(downloadButton().getAttribute('aria-disabled')).toBe('false'));
          await user.click(downloadButton());
        },
        'xstate.done.actor.downloadStatement': async ({ cardApi }) => {
          await waitFor(() => expect(cardApi.isWaiting(statementPath)).toBe(true));
          cardApi.answerFile(statementPath, pdfBytes);
        },
        'xstate.error.actor.downloadStatement': async ({ cardApi }) => {
          await waitFor(() => expect(cardApi.isWaiting(statementPath)).toBe(true));
          cardApi.fail(statementPath);
        },
      },
      states: [
        {
          when: (s) => s.matches('loading'),
          then: async ({ cardApi }) => {
            expect(await screen.findByRole('status', { name: 'Loading your statements' })).toBeTruthy();
            await waitFor(() => expect(cardApi.isWaiting(statementsPath)).toBe(true));
          },
        },
        {
          when: (s) => s.matches('failed'),
          then: async (ctx) => {
            expect(await screen.findByText("We couldn't load your statements. Please try again.")).toBeTruthy();
            // Spec §8: only reported, never the generic error modal.
            noErrorModal(ctx);
            expect(ctx.reports.filter((report) => report.message === 'Statements failed to load').map((report) => report.level)).toContain('warning');
          },
        },
        {
          when: (s) => s.matches('empty'),
          then: async () => {
            expect(await screen.findByText('No statements yet. Your first one will cover the month you opened your account.')).toBeTruthy();
            expect(screen.queryByRole('button', { name: /Download PDF/ })).toBeNull();
          },
        },
        {
          when: (s) => s.matches({ ready: 'idle' }),
          then: async () => {
            expect(await screen.findByRole('heading', { level: 2, name: 'November 2026' })).toBeTruthy();
            expect(screen.getByRole('heading', { level: 2, name: 'October 2026' })).toBeTruthy();
            expect(screen.getByText('$1,234.56')).toBeTruthy();
            expect(screen.getAllByText('$1,000.00')).toHaveLength(2);
            expect(screen.getByRole('button', { name: 'Download PDF for October 2026' })).toBeTruthy();
            // Only the month not over yet says its balances are so far.
            expect(screen.getAllByText('This month is not over yet: these are your balances so far.')).toHaveLength(1);
            expect(screen.getByRole('heading', { level: 2, name: 'November 2026' }).nextElementSibling?.textContent).toBe(
              'This month is not over yet: these are your balances so far.',
            );
            // Why its closing balance is above the available balance: the holds, said only where there are some.
            const onHold = "$12.40 is on hold for purchases that haven't settled yet. It is already out of your available balance, and counts in these balances once they settle.";
            expect(screen.getAllByText((_, element) => element?.textContent === onHold && element.tagName === 'P')).toHaveLength(1);
            expect(screen.queryByRole('alert')).toBeNull();
          },
        },
        {
          when: (s) => s.matches({ ready: 'downloading' }),
          then: async ({ cardApi, user }) => {
            expect(await screen.findByText('Downloading your statement for November 2026…')).toBeTruthy();
            await waitFor(() => expect(cardApi.isWaiting(statementPath)).toBe(true));
            expect(cardApi.requests.filter((request) => request.path === statementPath).at(-1)!.search).toBe('?month=2026-11&locale=en');
            expect(downloadButton().getAttribute('aria-disabled')).toBe('true');
            // A press meanwhile asks for nothing more.
            const asked = cardApi.requests.length;
            await user.click(downloadButton());
            expect(cardApi.requests.length).toBe(asked);
          },
        },
        {
          when: (s) => s.matches({ ready: 'downloaded' }),
          then: async () => {
            expect(await screen.findByText('Your statement for November 2026 has downloaded.')).toBeTruthy();
            expect(saved.at(-1)).toEqual({ name: 'providers-statement-2026-11.pdf', url: 'blob:http://app.test/statement' });
          },
        },
        {
          when: (s) => s.matches({ ready: 'downloadFailed' }),
          then: async (ctx) => {
            expect(
              await screen.findByText("We couldn't download your statement for November 2026. Please try again."),
            ).toBeTruthy();
            noErrorModal(ctx);
          },
        },
      ],
    });
  });
});

describe('statements in Spanish', () => {
  it('names each month as a heading and in its button, and asks for the Spanish PDF', async () => {
    const app = await renderApp('/statements', { ...active, locale: 'es' });
    await waitFor(() => expect(app.cardApi.isWaiting(statementsPath)).toBe(true));
    app.cardApi.answer(statementsPath, list);
    expect(await screen.findByRole('heading', { level: 1, name: 'Estados de cuenta mensuales' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Noviembre de 2026' })).toBeTruthy();
    expect(screen.getAllByText('Saldo final')).toHaveLength(2);
    await app.user.click(screen.getByRole('button', { name: 'Descargar PDF de noviembre de 2026' }));
    await waitFor(() => expect(app.cardApi.isWaiting(statementPath)).toBe(true));
    expect(app.cardApi.requests.filter((request) => request.path === statementPath).at(-1)!.search).toBe('?month=2026-11&locale=es');
    expect(screen.getByText('Descargando su estado de cuenta de noviembre de 2026…')).toBeTruthy();
    // The reader switches to English while the Spanish PDF is on its way: the file is named as it was asked.
    saved.length = 0;
    app.session.send({ type: 'user.changeLocale', locale: 'en' });
    expect(app.session.getSnapshot().context.locale).toBe('en');
    app.cardApi.answerFile(statementPath, pdfBytes);
    await waitFor(() => expect(saved.at(-1)?.name).toBe('providers-estado-de-cuenta-2026-11.pdf'));
  });
});

describe("the statements' time zone note", () => {
  afterEach(() => void vi.unstubAllEnvs());

  // Shown where a month's last or first hours are another month in New York; not on Eastern time.
  it.each([
    ['America/New_York', false],
    ['America/Detroit', false],
    ['America/Chicago', true],
    ['America/Los_Angeles', true],
    ['Pacific/Honolulu', true],
    ['America/Puerto_Rico', true],
    ['UTC', true],
  ])('on a phone in %s: shown %s', async (timeZone, shown) => {
    vi.stubEnv('TZ', timeZone);
    const app = await renderApp('/statements', active);
    await waitFor(() => expect(app.cardApi.isWaiting(statementsPath)).toBe(true));
    app.cardApi.answer(statementsPath, list);
    expect(await screen.findByRole('heading', { level: 2, name: 'November 2026' })).toBeTruthy();
    expect(screen.queryAllByText(/^Statements use US Eastern Time \(New York\)\./)).toHaveLength(shown ? 1 : 0);
  });
});
