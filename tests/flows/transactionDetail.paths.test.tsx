/**
 * Generated path tests over a transaction's detail: opened from the list (known at once, and asked for
 * again beside it) or from a link or reload (asked for), found, not found or failed; replayed against
 * the real app and router.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Transaction, TransactionDetail } from '../../contract/activity/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { transactionDetailMachine } from '../../machines/activity/transactionDetail.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { active, recordingHost, renderApp, type RenderOptions } from '../support/renderApp.tsx';
import { pressTryAgain } from '../support/tryAgain.ts';

const transactionPath = '/api/v1/transaction';
const hold: Transaction = {
  id: '6b0b4f7e-8f8e-4d39-9a49-0c7c0d1f2a3b',
  amount: -1240,
  timestamp: '2026-11-20T15:00:00Z',
  kind: 'purchase',
  status: 'pending',
  counterparty: 'Save Mart',
  location: 'Fresno, CA',
  heldUntil: '2026-11-27T15:00:00Z',
};
/** What the card API answers by the time the detail asks: the hold has settled, for less, the next day. */
const settled: TransactionDetail = { ...hold, amount: -1100, status: 'posted', heldUntil: null, settledAt: '2026-11-21T12:00:00Z', heldAmount: 1240 };
/** Its day on the phone's clock (the machine's time zone). */
const settledDay = new Date(settled.settledAt!).getDate();
const home = { statusCode: 0, accountOverview: { balance: 0, onHold: 1240, cards: [], transactions: [hold] } } as unknown as HomeAnswer;

const events = [
  { type: 'xstate.done.actor.getTransaction', output: { statusCode: 0, transaction: settled } },
  { type: 'xstate.done.actor.getTransaction', output: { statusCode: 3 } },
  { type: 'xstate.done.actor.getTransaction', output: { statusCode: 5 } },
  { type: 'xstate.error.actor.getTransaction', error: new Error('no statusCode') },
  { type: 'user.retry' },
];
const fromList = generatePaths(transactionDetailMachine, events, { id: hold.id, known: hold });
const fromLink = generatePaths(transactionDetailMachine, events, { id: hold.id, known: null });
// A link cut short: no transaction has this id.
const malformedId = hold.id.slice(0, 20);
const fromBrokenLink = generatePaths(transactionDetailMachine, events, { id: malformedId, known: null });
/** The app, and whether the detail was last seen asking beside the list's copy (no error modal then). */
type Ctx = Awaited<ReturnType<typeof renderApp>> & { refreshing?: boolean };

async function openFromList(options: RenderOptions = {}): Promise<Ctx> {
  const app = await renderApp('/transactions', active, options);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', home);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transactions')).toBe(true));
  app.cardApi.answer('/api/v1/transactions', { statusCode: 0, transactions: [hold], nextCursor: null });
  await app.user.click(await screen.findByRole('link', { name: /Purchase at Save Mart/ }));
  return app;
}

async function openLink(id: string): Promise<Ctx> {
  const app = await renderApp(`/transactions/detail?id=${id}`, active);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', home);
  return app;
}
const openFromLink = () => openLink(hold.id);
const openFromBrokenLink = () => openLink(malformedId);

describe('transaction detail chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(transactionDetailMachine, [fromList, fromLink, fromBrokenLink])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const runs = [
    ['from the list', fromList, openFromList],
    ['from a link', fromLink, openFromLink],
    ['from a broken link', fromBrokenLink, openFromBrokenLink],
  ] as const;
  const cases = runs.flatMap(([how, run, open]) =>
    minimalCover(transactionDetailMachine, run).map((path) => [`${how}: ${describePath(path)}`, path, open] as const),
  );

  it.each(cases)('path %s', async (_name, path, open) => {
    await replayPath<Ctx>(path, {
      start: open,
      events: {
        'xstate.done.actor.getTransaction': async ({ cardApi }, event) => {
          await waitFor(() => expect(cardApi.isWaiting(transactionPath)).toBe(true));
          const output = event.output as { statusCode: number };
          cardApi.answer(transactionPath, output, output.statusCode === 0 ? 200 : output.statusCode === 3 ? 404 : 500);
        },
        'xstate.error.actor.getTransaction': async ({ cardApi, user, refreshing }) => {
          await waitFor(() => expect(cardApi.isWaiting(transactionPath)).toBe(true));
          cardApi.fail(transactionPath);
          // No statusCode: the generic error modal opens and the user closes it; not while the list's copy
          // is shown, which stays.
          if (refreshing) await waitFor(() => expect(cardApi.isWaiting(transactionPath)).toBe(false));
          else await user.click(await screen.findByRole('button', { name: 'OK' }));
        },
        'user.retry': async ({ user }) => pressTryAgain(user),
      },
      states: [
        {
          when: (s) => s.matches('loading') || s.matches('refreshing'),
          then: async (ctx, s) => {
            ctx.refreshing = s.matches('refreshing');
            await waitFor(() => expect(ctx.cardApi.isWaiting(transactionPath)).toBe(true));
            expect(ctx.cardApi.requests.filter((request) => request.path === transactionPath).at(-1)!.search).toBe(`?id=${hold.id}`);
            // Opened from the list, its copy is shown at once while the card API is asked.
            if (ctx.refreshing) expect(screen.getByText('Why is this pending?')).toBeTruthy();
          },
        },
        {
          when: (s) => s.matches('shown'),
          then: async () => {
            expect(await screen.findByRole('heading', { level: 1, name: 'Purchase at Save Mart' })).toBeTruthy();
            expect(screen.getByText('Fresno, CA')).toBeTruthy();
            // The card API's answer, whichever way it was opened: settled for less, no longer held.
            await waitFor(() => expect(screen.getByText('-$11.00').getAttribute('aria-hidden')).toBe('true'));
            expect(screen.getByText('minus $11.00')).toBeTruthy();
            expect(screen.getByText('Completed')).toBeTruthy();
            expect(screen.queryByText('Why is this pending?')).toBeNull();
            // When it was completed (the day its statement counts), and what became of the $1.40 held and not taken.
            expect(screen.getByText('Date completed').nextElementSibling!.textContent).toBe(`Nov ${settledDay}, 2026`);
            expect(
              screen.getByText('$12.40 was held at first. The merchant completed the purchase for less, and the $1.40 left over went back to your balance.'),
            ).toBeTruthy();
            // Where the list's copy said pending, the change is said aloud, each whole: the amount and the status.
            const live = [...document.querySelectorAll('main [aria-live="polite"][aria-atomic="true"]')].map((region) => region.textContent);
            expect(live).toEqual(['Amount: -$11.00minus $11.00', 'StatusCompleted']);
            expect(screen.queryByText(/We couldn't check this transaction/)).toBeNull();
            expect(screen.queryByRole('dialog')).toBeNull();
          },
        },
        {
          when: (s) => s.matches('unchecked'),
          then: async () => {
            // The list's copy, which the card API could not confirm: still pending, and said to be unchecked
            // (offline, it would otherwise pass for the current state of the hold).
            expect(await screen.findByRole('heading', { level: 1, name: 'Purchase at Save Mart' })).toBeTruthy();
            // Seen with its sign, heard in words: at their default punctuation level screen readers may drop a hyphen.
            expect(screen.getByText('-$12.40').getAttribute('aria-hidden')).toBe('true');
            expect(screen.getByText('minus $12.40')).toBeTruthy();
            expect(screen.getByText('Pending')).toBeTruthy();
            expect(screen.getByText('Why is this pending?')).toBeTruthy();
            expect(screen.getByText(`If the merchant doesn't complete it, the hold is released by Nov ${new Date(hold.heldUntil!).getDate()}, 2026.`)).toBeTruthy();
            expect(await screen.findByText(/^We couldn't check this transaction for changes: this is how your activity showed it\. (Please try again|Check your connection and try again)\.$/)).toBeTruthy();
            expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
            expect(screen.queryByRole('dialog')).toBeNull();
          },
        },
        {
          when: (s) => s.matches('notFound'),
          then: async ({ cardApi }) => {
            expect(await screen.findByText("We couldn't find this transaction on your account.")).toBeTruthy();
            // Honest about the one way a link a cardholder saw can lead here: a hold that left activity.
            expect(screen.getByText(/A hold that was released, or that ended without the purchase being completed, is no longer listed: no money was taken for it\./)).toBeTruthy();
            // A broken link is told at once: nothing to ask the card API, nothing to retry.
            if (open === openFromBrokenLink) expect(cardApi.requests.filter((request) => request.path === transactionPath)).toEqual([]);
            expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
          },
        },
        {
          when: (s) => s.matches('failed'),
          then: async () => {
            expect(await screen.findByText("We couldn't load this transaction. Please try again.")).toBeTruthy();
          },
        },
      ],
    });
  });

  it("names a fee by its name, never by the ledger's code for it", async () => {
    const fee: Transaction = { ...hold, id: '0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5', amount: -350, kind: 'fee', status: 'posted', counterparty: 'cashReload', location: null, heldUntil: null };
    const { cardApi } = await renderApp(`/transactions/detail?id=${fee.id}`, active);
    await waitFor(() => expect(cardApi.isWaiting('/api/v1/home')).toBe(true));
    cardApi.answer('/api/v1/home', home);
    await waitFor(() => expect(cardApi.isWaiting(transactionPath)).toBe(true));
    cardApi.answer(transactionPath, { statusCode: 0, transaction: fee });
    expect(await screen.findByRole('heading', { level: 1, name: 'Fee: Cash reload' })).toBeTruthy();
    expect(screen.getByText('-$3.50')).toBeTruthy();
    expect(screen.getByText('Completed')).toBeTruthy();
    expect(screen.queryByText('Merchant')).toBeNull();
    expect(document.body.textContent).not.toContain('cashReload');
    // Posted at once, never held.
    expect(screen.queryByText('Date completed')).toBeNull();
    expect(screen.queryByText(/was held at first/)).toBeNull();
  });

  it('says in Spanish when a hold was completed and what it gave back', async () => {
    const { cardApi } = await renderApp(`/transactions/detail?id=${hold.id}`, { ...active, locale: 'es' });
    await waitFor(() => expect(cardApi.isWaiting('/api/v1/home')).toBe(true));
    cardApi.answer('/api/v1/home', home);
    await waitFor(() => expect(cardApi.isWaiting(transactionPath)).toBe(true));
    cardApi.answer(transactionPath, { statusCode: 0, transaction: settled });
    expect((await screen.findByText('Fecha en que se completó')).nextElementSibling!.textContent).toBe(`${settledDay} nov 2026`);
    expect(
      screen.getByText('Al principio se retuvo un monto de $12.40. El comercio completó la compra por un monto menor, y la diferencia de $1.40 volvió a su saldo.'),
    ).toBeTruthy();
  });

  it.each([
    {
      locale: 'en' as const,
      pending: 'The merchant asked for this amount and it is held from your balance until they complete the purchase. The final amount can be lower, or higher when a tip is added.',
      tipped: '$12.40 was held at first. The merchant completed the purchase for more (with a tip, for example), and the extra $2.60 was taken from your balance.',
    },
    {
      locale: 'es' as const,
      pending: 'El comercio pidió este monto y se retiene de su saldo hasta que el comercio complete la compra. El monto final puede ser menor, o mayor si se agrega una propina.',
      tipped: 'Al principio se retuvo un monto de $12.40. El comercio completó la compra por un monto mayor (por ejemplo, con una propina), y la diferencia de $2.60 se descontó de su saldo.',
    },
  ])('says ($locale) that a hold can end higher with a tip, and what a purchase completed for more took', async ({ locale, pending, tipped }) => {
    const { cardApi } = await renderApp(`/transactions/detail?id=${hold.id}`, { ...active, locale });
    await waitFor(() => expect(cardApi.isWaiting('/api/v1/home')).toBe(true));
    cardApi.answer('/api/v1/home', home);
    await waitFor(() => expect(cardApi.isWaiting(transactionPath)).toBe(true));
    cardApi.answer(transactionPath, { statusCode: 0, transaction: hold });
    expect(await screen.findByText(pending)).toBeTruthy();
    cleanup();

    const withTip: TransactionDetail = { ...settled, amount: -1500 };
    const again = await renderApp(`/transactions/detail?id=${hold.id}`, { ...active, locale });
    await waitFor(() => expect(again.cardApi.isWaiting('/api/v1/home')).toBe(true));
    again.cardApi.answer('/api/v1/home', home);
    await waitFor(() => expect(again.cardApi.isWaiting(transactionPath)).toBe(true));
    again.cardApi.answer(transactionPath, { statusCode: 0, transaction: withTip });
    expect(await screen.findByText(tipped)).toBeTruthy();
    expect(screen.queryByText(pending)).toBeNull();
    expect(screen.queryByText(/left over|volvió a su saldo/)).toBeNull();
  });

  it('"Back to activity" goes back in history when the list opened it: the list comes back where it was', async () => {
    const { router, user } = await openFromList();
    const listEntry = router.history.location.state.__TSR_index - 1;
    // A link to another page: never "current page" to a screen reader (the detail's address is under the list's).
    expect((await screen.findByRole('link', { name: 'Back to activity' })).getAttribute('aria-current')).toBeNull();
    await user.click(await screen.findByRole('link', { name: 'Back to activity' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions'));
    expect(router.history.location.state.__TSR_index, 'the same entry, not a new one').toBe(listEntry);
  });

  it('"Back to activity" opens the list after a reload (the list\'s entry is the page before), and in the companion app (a step back could be the host\'s)', async () => {
    const reloaded = await openFromList();
    await waitFor(() => expect(reloaded.router.state.location.pathname).toBe('/transactions/detail'));
    // What a reload leaves: the entry's state, marked by the page load before.
    const { href } = reloaded.router.history.location;
    reloaded.router.history.replace(href, { ...reloaded.router.history.location.state, fromActivityList: 'an-earlier-page-load' });
    const entry = reloaded.router.history.location.state.__TSR_index;
    await reloaded.user.click(await screen.findByRole('link', { name: 'Back to activity' }));
    await waitFor(() => expect(reloaded.router.state.location.pathname).toBe('/transactions'));
    expect(reloaded.router.history.location.state.__TSR_index).toBe(entry + 1);
    cleanup();

    const embedded = await openFromList({ host: recordingHost({ embedded: true, providersUuid: 'companion-user-1' }).host });
    const detailEntry = embedded.router.history.location.state.__TSR_index;
    await embedded.user.click(await screen.findByRole('link', { name: 'Back to activity' }));
    await waitFor(() => expect(embedded.router.state.location.pathname).toBe('/transactions'));
    expect(embedded.router.history.location.state.__TSR_index).toBe(detailEntry + 1);
  });

  it('"Back to activity" opens the list when the detail came from elsewhere (home, a link)', async () => {
    const { router, user } = await openFromLink();
    const detailEntry = router.history.location.state.__TSR_index;
    await user.click(await screen.findByRole('link', { name: 'Back to activity' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/transactions'));
    expect(router.history.location.state.__TSR_index).toBe(detailEntry + 1);
  });
});
