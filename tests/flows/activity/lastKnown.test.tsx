/**
 * The activity screen with no answer, through the real router: what it shows from the last-known copy
 * always says when it is from (the rows and the balance at the top, each with its own time), and a
 * balance that could not be loaded says so and is asked for again by Refresh.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TransactionsPage } from '../../../contract/activity/types.ts';
import { homeWith } from '../../support/manageCardsFixtures.ts';
import { accessTokenFor, storageWith } from '../../support/lastKnown.ts';
import { active, renderApp } from '../../support/renderApp.tsx';
import { pressTryAgain } from '../../support/tryAgain.ts';

const transactionsPath = '/api/v1/transactions';
const homePath = '/api/v1/home';
const owner = 'user-1';
const signedIn = { ...active, accessToken: accessTokenFor(owner) };

const keptPage: TransactionsPage = {
  statusCode: 0,
  transactions: [{ id: 't2', amount: 48000, timestamp: '2026-11-06T09:00:00Z', kind: 'deposit', status: 'posted', counterparty: 'Valley Transit', location: null, heldUntil: null }],
  nextCursor: 'kept-1',
};
const freshPage: TransactionsPage = {
  statusCode: 0,
  transactions: [{ id: 't1', amount: -1240, timestamp: '2026-11-20T15:00:00Z', kind: 'purchase', status: 'posted', counterparty: 'Save Mart', location: 'Fresno, CA', heldUntil: null }],
  nextCursor: null,
};
const home = homeWith([]);
const keptHome = { ...home, accountOverview: { ...home.accountOverview, balance: 99_900 } };

const rowsNotice = () => screen.queryByText(/This is what your account showed on/);

async function answer(app: Awaited<ReturnType<typeof renderApp>>, path: string, body: object | 'fail') {
  await waitFor(() => expect(app.cardApi.isWaiting(path)).toBe(true));
  if (body === 'fail') app.cardApi.fail(path);
  else app.cardApi.answer(path, body);
}

describe('activity with no answer', () => {
  it('keeps the last-known rows with their time while they are asked for again, and after a second failure', async () => {
    const storage = storageWith(owner, (store) => store.activity.keep(owner, keptPage, new Date('2026-11-23T17:05:00Z')));
    const app = await renderApp('/transactions', signedIn, { storage });
    await answer(app, homePath, home);
    await answer(app, transactionsPath, 'fail');
    expect(await screen.findByText(/This is what your account showed on Nov 23, 2026 at /)).toBeTruthy();

    await pressTryAgain(app.user);
    await waitFor(() => expect(app.cardApi.isWaiting(transactionsPath)).toBe(true));
    // Asked for again: the old rows are still on screen, so their time is too.
    expect(screen.getByText('Deposit from Valley Transit')).toBeTruthy();
    expect(rowsNotice()).toBeTruthy();

    app.cardApi.fail(transactionsPath);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Refreshing…' })).toBeNull());
    expect(screen.getByText('Deposit from Valley Transit')).toBeTruthy();
    expect(rowsNotice()?.textContent).toMatch(/showed on Nov 23, 2026 at /);
    expect(screen.queryByText(/We couldn't load your activity/)).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when the balance at the top is from when it is the last-known copy and the rows are fresh', async () => {
    const storage = storageWith(owner, (store) => store.home.keep(owner, keptHome, new Date('2026-11-24T17:05:00Z')));
    const app = await renderApp('/transactions', signedIn, { storage });
    await answer(app, homePath, 'fail');
    await answer(app, transactionsPath, freshPage);
    expect(await screen.findByText('Purchase at Save Mart')).toBeTruthy();
    expect(screen.getByText('Available balance: $999.00')).toBeTruthy();
    expect(screen.getByText(/^This balance is from Nov 24, 2026 at .*; it may have changed since\.$/)).toBeTruthy();
    expect(rowsNotice()).toBeNull();

    // Refreshed: the fresh balance, and no time beside it.
    await app.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await answer(app, transactionsPath, freshPage);
    await answer(app, homePath, home);
    expect(await screen.findByText('Available balance: $1,234.56')).toBeTruthy();
    expect(screen.queryByText(/This balance is from/)).toBeNull();
  });

  it.each([
    ['the same minute: the rows\' notice says it for both', '2026-11-24T17:05:41Z', false],
    ['another minute: the balance says its own time', '2026-11-24T17:09:02Z', true],
  ] as const)('with both copies kept, %s', async (_name, rowsFetchedAt, balanceSaysItsTime) => {
    const storage = storageWith(owner, (store) => {
      store.home.keep(owner, keptHome, new Date('2026-11-24T17:05:03Z'));
      store.activity.keep(owner, keptPage, new Date(rowsFetchedAt));
    });
    const app = await renderApp('/transactions', signedIn, { storage });
    await answer(app, homePath, 'fail');
    await answer(app, transactionsPath, 'fail');
    expect(await screen.findByText('Deposit from Valley Transit')).toBeTruthy();
    expect(rowsNotice()).toBeTruthy();
    expect(screen.getByText('Available balance: $999.00')).toBeTruthy();
    expect(screen.queryByText(/This balance is from Nov 24, 2026 at /) !== null).toBe(balanceSaysItsTime);
  });

  it('says the balance could not be loaded, and Refresh asks for it again', async () => {
    const app = await renderApp('/transactions', active);
    await answer(app, homePath, 'fail');
    // Nothing kept to show instead: the error modal, closed by the cardholder.
    await app.user.click(await screen.findByRole('button', { name: 'OK' }));
    await answer(app, transactionsPath, freshPage);
    expect(await screen.findByText("We couldn't load your balance.")).toBeTruthy();
    expect(screen.queryByText('Available balance: loading…')).toBeNull();

    await app.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await answer(app, transactionsPath, freshPage);
    await answer(app, homePath, home);
    expect(await screen.findByText('Available balance: $1,234.56')).toBeTruthy();
  });
});
