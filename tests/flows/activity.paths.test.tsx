/** Generated path tests over the activity chart (paging, refresh, failures), replayed against the real app and router. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transaction, TransactionsPage } from '../../contract/activity/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { activityMachine } from '../../machines/activity/activity.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { accessTokenFor, storageWith } from '../support/lastKnown.ts';
import { active, renderApp } from '../support/renderApp.tsx';
import { passSlowAnswer } from '../support/replayClock.ts';
import { pressTryAgain } from '../support/tryAgain.ts';

const transactionsPath = '/api/v1/transactions';
const homePath = '/api/v1/home';

const hold: Transaction = {
  id: 't1',
  amount: -1240,
  timestamp: '2026-11-20T15:00:00Z',
  kind: 'purchase',
  status: 'pending',
  counterparty: 'Save Mart',
  location: 'Fresno, CA',
  heldUntil: '2026-11-27T15:00:00Z',
};
const deposit: Transaction = {
  id: 't2',
  amount: 48000,
  timestamp: '2026-11-06T09:00:00Z',
  kind: 'deposit',
  status: 'posted',
  counterparty: 'Valley Transit',
  location: null,
  heldUntil: null,
};
/** The fee totals the server's newest page carries (a later page has none); the kept copy's are its day's. */
const fees = { lastMonth: '2026-10', lastMonthCents: 500, year: '2026', yearCents: 750 };
/** The two totals' lines, first in the paragraph (a phone outside US Eastern time then has a line on months). */
const feeLines = (month: string, year: string) => new RegExp(`^Fees we charged you in October 2026: \\${month}Fees we charged you in 2026 so far: \\${year}`);
const newestPage: TransactionsPage = { statusCode: 0, transactions: [hold], nextCursor: 'next-1' };
const settled: Transaction = { ...hold, status: 'posted', heldUntil: null };
const lastPage: TransactionsPage = { statusCode: 0, transactions: [deposit], nextCursor: null };

const home: HomeAnswer = {
  statusCode: 0,
  accountOverview: {
    balance: 123456,
    onHold: 1240,
    cards: [],
    transactions: [hold],
    prn: '400012345678',
    flags: { hasFunded: true, hasFundedAnyKind: true },
    ebtRewardOwed: 0,
    ebtRewardsClaimedThisPeriod: 0,
  },
  registrationWave: null,
  pendingCard: null,
  virtualCard: null,
  prn: '400012345678',
  hasFundedAnyKind: true,
};

/** Home once the hold has settled: the same available balance, nothing on hold. */
const homeAfterSettling: HomeAnswer = { ...home, accountOverview: { ...home.accountOverview, onHold: 0, transactions: [settled] } };

const events = [
  { type: 'xstate.done.actor.getTransactions', output: newestPage },
  { type: 'xstate.done.actor.getTransactions', output: lastPage },
  { type: 'xstate.error.actor.getTransactions', error: new Error('no statusCode') },
  { type: 'user.loadMore' },
  { type: 'user.refresh' },
  { type: 'user.retry' },
  // The hold, opened: it has settled since the page came, or it is still pending.
  { type: 'transaction.seen', id: settled.id, transaction: settled },
  { type: 'transaction.seen', id: hold.id, transaction: hold },
  { type: 'xstate.after.slowAnswer.activity.firstPage.waiting' },
];

// Rows pile up page after page: states are told apart by where the chart is, whether rows are shown,
// and whether they are the last-known copy.
const byPlaceAndRows = {
  serializeState: (snapshot: { value: unknown; context: unknown }) => {
    const { transactions, asOf } = snapshot.context as { transactions: unknown[]; asOf: string | null };
    return `${JSON.stringify(snapshot.value)}:${transactions.length > 0}:${asOf !== null}`;
  },
};
// A phone with nothing kept, and one that kept the newest page the day before: offline, that copy shows.
const fresh = generatePaths(activityMachine, events, undefined, byPlaceAndRows);
const kept = {
  data: { statusCode: 0 as const, transactions: [deposit], nextCursor: 'kept-1', fees: { ...fees, lastMonthCents: 0, yearCents: 250 } },
  fetchedAt: '2026-11-23T17:05:00Z',
};
/** The fee totals said below the rows (as one paragraph, a line each), or null when none is. */
const feeTotalsShown = () => document.querySelector('.activity-fees')?.textContent ?? null;
const withLastKnown = generatePaths(activityMachine, events, { lastKnown: kept }, byPlaceAndRows);
const owner = 'user-1';
/**
 * The app, how many rows were shown when "Show older activity" was pressed (until the older rows
 * show), how many rows the older page answered adds (its transactions not already shown), and which
 * rows the list should show as the replay answered it (never read from the chart's context): none yet,
 * this visit's pages, or the copy kept on the phone (after the newest page got no answer).
 */
type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  olderFrom?: number | null;
  olderAdded?: number | null;
  pressedOlder?: boolean;
  rows: 'none' | 'fresh' | 'copy';
  /** A newest page still unanswered that Try again replaced (after a slow answer): the server never answers it. */
  replaced?: boolean;
};
const rowLinks = () => [...document.getElementsByClassName('activity-link')] as HTMLAnchorElement[];
/** The transaction a row opens (its link's `?id=`). */
const rowId = (link: HTMLAnchorElement) => new URL(link.href).searchParams.get('id');
/** The list's end: what it says, announced (role=status). */
const listEndStatus = () => document.querySelector('.activity-end [role="status"]')!;
/** After older rows arrive, the keyboard's focus is on the first of them (the pressed button is gone). */
async function expectFocusOnFirstOlderRow(ctx: Ctx) {
  const { olderFrom: from, olderAdded: added } = ctx;
  ctx.olderFrom = null;
  ctx.olderAdded = null;
  if (from === undefined || from === null) return;
  expect(added, 'the older page was answered after "Show older activity"').toEqual(expect.any(Number));
  // The older page's new rows are shown below the ones there were, none lost and none twice.
  await waitFor(() => expect(rowLinks()).toHaveLength(from + added!));
  // A page with nothing new (all its rows already shown) adds no row to move the focus to.
  if (added === 0) return;
  await waitFor(() => expect(document.activeElement).toBe(rowLinks()[from]));
}
const asOfNotice = () => screen.queryByText(/This is what your account showed on/);

/** The list with home and the newest page answered (the hold, pending). */
async function listWithNewestPage() {
  const app = await renderApp('/transactions', active);
  await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
  app.cardApi.answer(homePath, home);
  await waitFor(() => expect(app.cardApi.isWaiting(transactionsPath)).toBe(true));
  app.cardApi.answer(transactionsPath, newestPage);
  return app;
}

const heldLine = () => screen.queryByText('$12.40 is on hold for purchases that haven\'t settled yet.');

/**
 * Opened from its row, the hold's detail reads it again; back on the list, the row says what the
 * detail did. A hold settled since also refreshes the balance above the list: home answers it with
 * nothing on hold, and the held line goes. A hold still pending asks home for nothing.
 */
async function seeInDetail({ user, cardApi }: Pick<Ctx, 'user' | 'cardApi'>, transaction: Transaction) {
  const settledSince = transaction.status !== 'pending';
  await user.click(await screen.findByRole('link', { name: /^Purchase at Save Mart/ }));
  await waitFor(() => expect(cardApi.isWaiting('/api/v1/transaction')).toBe(true));
  cardApi.answer('/api/v1/transaction', { statusCode: 0, transaction });
  expect(await screen.findByText(settledSince ? 'Completed' : 'Pending')).toBeTruthy();
  expect(cardApi.isWaiting(homePath)).toBe(settledSince);
  await user.click(screen.getByRole('link', { name: 'Back to activity' }));
  const row = await screen.findByRole('link', { name: /^Purchase at Save Mart/ });
  expect(row.textContent!.includes('Pending')).toBe(!settledSince);
  if (!settledSince) return;
  expect(heldLine()).toBeTruthy();
  cardApi.answer(homePath, homeAfterSettling);
  await waitFor(() => expect(heldLine()).toBeNull());
  expect(screen.getByText('Available balance: $1,234.56')).toBeTruthy();
}

describe('activity chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(activityMachine, [fresh, withLastKnown])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const cases = [
    ...minimalCover(activityMachine, fresh).map((path) => [`nothing kept: ${describePath(path)}`, path, false] as const),
    // Only the paths through the last-known copy: the rest are the fresh ones again.
    ...minimalCover(activityMachine, withLastKnown)
      .filter((path) => path.steps.some((step) => step.state.matches('lastKnown') || step.state.matches({ firstPage: 'slow' })))
      .map((path) => [`last known kept: ${describePath(path)}`, path, true] as const),
  ];

  it.each(cases)('path %s', async (_name, path, withCopy) => {
    // The replay's own record, for the checks that choose by it (they see only the chart's state).
    let replay: Ctx | null = null;
    const rowsShown = () => replay!.rows;
    await replayPath<Ctx>(path, {
      start: async () => {
        const app = withCopy
          ? await renderApp('/transactions', { ...active, accessToken: accessTokenFor(owner) }, {
              storage: storageWith(owner, (store) => store.activity.keep(owner, kept.data, new Date(kept.fetchedAt))),
            })
          : await renderApp('/transactions', active);
        await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
        app.cardApi.answer(homePath, home);
        return (replay = { ...app, rows: 'none' });
      },
      events: {
        'xstate.done.actor.getTransactions': async (ctx, event) => {
          await waitFor(() => expect(ctx.cardApi.isWaiting(transactionsPath)).toBe(true));
          if (ctx.olderFrom !== undefined && ctx.olderFrom !== null) {
            // The older page: the rows it adds are its transactions not shown already.
            const shown = new Set(rowLinks().map(rowId));
            ctx.olderAdded = new Set((event.output as TransactionsPage).transactions.map((row) => row.id).filter((id) => !shown.has(id))).size;
          }
          // As the server answers: the newest page with the fee totals, a later one without (the list keeps the newest page's).
          const newest = ctx.cardApi.requests.filter((request) => request.path === transactionsPath).at(-1)!.search === '?limit=25';
          ctx.cardApi.answer(transactionsPath, newest ? { ...(event.output as TransactionsPage), fees } : event.output);
          ctx.rows = 'fresh';
        },
        'xstate.error.actor.getTransactions': async (ctx, _event) => {
          const { cardApi, user } = ctx;
          await waitFor(() => expect(cardApi.isWaiting(transactionsPath)).toBe(true));
          const firstPage = cardApi.requests.filter((request) => request.path === transactionsPath).at(-1)!.search === '?limit=25';
          cardApi.fail(transactionsPath);
          // The phone's copy shows in place of no rows (or of itself); this visit's rows stay, the failure said.
          if (withCopy && firstPage && ctx.rows !== 'fresh') ctx.rows = 'copy';
          // No statusCode: the generic error modal opens and the user closes it; with a last-known copy kept
          // on the phone, a failed newest page is said on the screen instead.
          if (!(withCopy && firstPage)) await user.click(await screen.findByRole('button', { name: 'OK' }));
        },
        'user.loadMore': async (ctx) => {
          const button = await screen.findByRole('button', { name: 'Show older activity' });
          ctx.olderFrom = rowLinks().length;
          ctx.olderAdded = null;
          ctx.pressedOlder = true;
          await ctx.user.click(button);
        },
        'user.refresh': async (ctx) => {
          const { user, cardApi } = ctx;
          ctx.olderFrom = null;
          await user.click(await screen.findByRole('button', { name: 'Refresh' }));
          // Refreshing the list refreshes home data too (spec §2).
          await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
          cardApi.answer(homePath, home);
        },
        'user.retry': async (ctx) => {
          ctx.pressedOlder = false;
          const asked = ctx.cardApi.requests.length;
          await pressTryAgain(ctx.user);
          if (!ctx.replaced) return;
          // The slow call Try again replaced is left to fail on its own: dropped here, it changes nothing.
          await waitFor(() => expect(ctx.cardApi.requests.length).toBeGreaterThan(asked));
          ctx.cardApi.drop(transactionsPath);
          ctx.replaced = false;
        },
        // No newest page for longer than the list waits: the copy shows meanwhile, with its time.
        'xstate.after.slowAnswer.activity.firstPage.waiting': async (ctx) => {
          await waitFor(() => expect(ctx.cardApi.isWaiting(transactionsPath)).toBe(true));
          await passSlowAnswer();
          ctx.rows = 'copy';
          ctx.replaced = true;
        },
        'transaction.seen': async (ctx, event) => {
          ctx.olderFrom = null;
          await seeInDetail(ctx, event.transaction as Transaction);
        },
      },
      states: [
        {
          when: (s) => s.matches('firstPage') && rowsShown() === 'none',
          then: async ({ cardApi }) => {
            expect(await screen.findByRole('status', { name: 'Loading your activity' })).toBeTruthy();
            expect(feeTotalsShown()).toBeNull();
            await waitFor(() => expect(cardApi.isWaiting(transactionsPath)).toBe(true));
            expect(cardApi.requests.filter((request) => request.path === transactionsPath).at(-1)!.search).toBe('?limit=25');
          },
        },
        {
          when: (s) => s.matches('firstPage'),
          then: async ({ cardApi, rows }) => {
            // The rows stay while the newest page is asked for again; the last-known copy with its time.
            expect(await screen.findByRole('button', { name: 'Refreshing…' })).toBeTruthy();
            expect(screen.getAllByRole('link').length).toBeGreaterThan(2);
            // The newest rows are asked for, not older ones: the list's end says nothing of older activity.
            expect(listEndStatus().textContent).toBe('');
            await waitFor(() => expect(asOfNotice() !== null).toBe(rows === 'copy'));
            expect(cardApi.requests.filter((request) => request.path === transactionsPath).at(-1)!.search).toBe('?limit=25');
          },
        },
        {
          when: (s) => s.matches('firstPageFailed'),
          then: async () => {
            expect(await screen.findByText("We couldn't load your activity. Please try again.")).toBeTruthy();
            // Rows shown here are this visit's, never an old copy without its time.
            expect(asOfNotice()).toBeNull();
          },
        },
        {
          when: (s) => s.matches('complete'),
          then: async (ctx) => {
            expect(await screen.findByRole('button', { name: 'Show older activity' })).toBeTruthy();
            // The list's end announces only its messages: the button is not inside the live region.
            expect(listEndStatus().textContent).toBe('');
            expect(screen.getByText('Available balance: $1,234.56')).toBeTruthy();
            expect(screen.getByText('Purchase at Save Mart')).toBeTruthy();
            // This visit's rows: no earlier copy's date is said of them, and the newest page's fee totals.
            expect(asOfNotice()).toBeNull();
            expect(feeTotalsShown()).toMatch(feeLines('$5.00', '$7.50'));
            await expectFocusOnFirstOlderRow(ctx);
          },
        },
        {
          when: (s) => s.matches('nextPage'),
          then: async ({ cardApi, pressedOlder }) => {
            await waitFor(() => expect(listEndStatus().textContent).toBe('Loading older activity…'));
            await waitFor(() => expect(cardApi.isWaiting(transactionsPath)).toBe(true));
            expect(cardApi.requests.filter((request) => request.path === transactionsPath).at(-1)!.search).toBe('?cursor=next-1&limit=25');
            // Pressed, it stays, unavailable, with the keyboard's focus (not dropped to the page's start;
            // after a failure's Try again the heading has it), and a press asks for nothing more.
            const button = screen.getByRole('button', { name: 'Show older activity' });
            expect(button.getAttribute('aria-disabled')).toBe('true');
            expect(document.activeElement).toBe(pressedOlder ? button : screen.getByRole('heading', { level: 1, name: 'Activity' }));
            const asked = cardApi.requests.length;
            fireEvent.click(button);
            expect(cardApi.requests.length).toBe(asked);
          },
        },
        {
          when: (s) => s.matches('nextPageFailed'),
          then: async () => {
            expect(await screen.findByText("We couldn't load more activity. Please try again.")).toBeTruthy();
            expect(screen.getByText('Purchase at Save Mart')).toBeTruthy();
            // Its Try again is the way on: no "Show older activity" beside it that would do nothing.
            expect(screen.queryByRole('button', { name: 'Show older activity' })).toBeNull();
          },
        },
        {
          when: (s) => s.matches('lastKnown'),
          then: async () => {
            expect(await screen.findByText(/We couldn't get your latest account information\. This is what your account showed on Nov 23, 2026 at /)).toBeTruthy();
            expect(screen.getByText('Deposit from Valley Transit')).toBeTruthy();
            // The copy's fee totals, of the day it was kept (under its notice), not this visit's.
            expect(feeTotalsShown()).toMatch(feeLines('$0.00', '$2.50'));
            expect(screen.queryByRole('button', { name: 'Show older activity' })).toBeNull();
            expect(screen.queryByRole('dialog')).toBeNull();
          },
        },
        {
          when: (s) => s.matches('noMore'),
          then: async (ctx) => {
            await waitFor(() => expect(listEndStatus().textContent).toBe("That's all of your activity."));
            expect(screen.queryByRole('button', { name: 'Show older activity' })).toBeNull();
            expect(asOfNotice()).toBeNull();
            expect(feeTotalsShown()).toMatch(feeLines('$5.00', '$7.50'));
            await expectFocusOnFirstOlderRow(ctx);
          },
        },
      ],
    });
  });
  it("takes a row's settled copy from its detail also after a refresh failed, the failure still said", async () => {
    const app = await listWithNewestPage();
    await app.user.click(await screen.findByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, home);
    await waitFor(() => expect(app.cardApi.isWaiting(transactionsPath)).toBe(true));
    app.cardApi.fail(transactionsPath);
    await app.user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText("We couldn't load your activity. Please try again.")).toBeTruthy();
    await seeInDetail(app, settled);
    expect(screen.getByText("We couldn't load your activity. Please try again.")).toBeTruthy();
  });

  it('drops a row whose detail finds it gone (a hold released since the page came)', async () => {
    const app = await listWithNewestPage();
    await app.user.click(await screen.findByRole('link', { name: /^Purchase at Save Mart/ }));
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transaction')).toBe(true));
    app.cardApi.answer('/api/v1/transaction', { statusCode: 3 }, 404);
    expect(await screen.findByText("We couldn't find this transaction on your account.")).toBeTruthy();
    await app.user.click(screen.getByRole('link', { name: 'Back to activity' }));
    await screen.findByRole('heading', { level: 1, name: 'Activity' });
    expect(screen.queryByRole('link', { name: /^Purchase at Save Mart/ })).toBeNull();
  });

  it("shows home's kept recent rows when no activity was ever kept and the newest page cannot come, and opens their detail from that copy", async () => {
    const homeFetchedAt = '2026-11-24T08:30:00Z';
    const app = await renderApp('/transactions', { ...active, accessToken: accessTokenFor(owner) }, {
      storage: storageWith(owner, (store) => store.home.keep(owner, home, new Date(homeFetchedAt))),
    });
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.fail(homePath);
    await waitFor(() => expect(app.cardApi.isWaiting(transactionsPath)).toBe(true));
    app.cardApi.fail(transactionsPath);
    // Home's copy is the newest activity known: its row, said as of when home fetched it, and no modal.
    const row = await screen.findByRole('link', { name: /^Purchase at Save Mart/ });
    expect(rowLinks()).toHaveLength(home.accountOverview.transactions.length);
    expect(screen.getAllByText(/We couldn't get your latest account information/).length).toBeGreaterThan(0);
    expect(screen.queryByRole('dialog')).toBeNull();

    await app.user.click(row);
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transaction')).toBe(true));
    app.cardApi.fail('/api/v1/transaction');
    // The detail shows the copy's row (its merchant and status), not that it could not be loaded.
    expect(await screen.findByText('Save Mart')).toBeTruthy();
    expect(screen.queryByText(/We couldn't load this transaction/)).toBeNull();
  });

  it("opens a detail from home's kept copy while the list's newest page is still on its way (a row tapped on home, offline)", async () => {
    const app = await renderApp(`/transactions/detail?id=${hold.id}`, { ...active, accessToken: accessTokenFor(owner) }, {
      storage: storageWith(owner, (store) => store.home.keep(owner, home, new Date('2026-11-24T08:30:00Z'))),
    });
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transaction')).toBe(true));
    expect(app.cardApi.isWaiting(transactionsPath)).toBe(true);
    app.cardApi.fail('/api/v1/transaction');
    expect(await screen.findByText('Save Mart')).toBeTruthy();
    expect(screen.queryByText(/We couldn't load this transaction/)).toBeNull();
  });

  it('puts the focus on the first older row also when they come after a failure and Try again', async () => {
    const app = await listWithNewestPage();
    await app.user.click(await screen.findByRole('button', { name: 'Show older activity' }));
    await waitFor(() => expect(app.cardApi.isWaiting(transactionsPath)).toBe(true));
    app.cardApi.answer(transactionsPath, { statusCode: 5 }, 500);
    // The pressed button is gone: the failure's Try again has the focus.
    const retry = await screen.findByRole('button', { name: 'Try again' });
    await waitFor(() => expect(document.activeElement).toBe(retry));
    await app.user.click(retry);
    await waitFor(() => expect(app.cardApi.isWaiting(transactionsPath)).toBe(true));
    app.cardApi.answer(transactionsPath, lastPage);
    await screen.findByText("That's all of your activity.");
    await waitFor(() => expect(document.activeElement).toBe(rowLinks()[1]));
    expect(document.activeElement?.textContent).toContain('Deposit from Valley Transit');
  });
});
