/**
 * GET /home asked for while home, the first screen, is still loading (src/features/home/earlyHome.ts),
 * through the real router: the screen shows that answer without asking again, and a first screen left
 * before home showed never hands its answer to a later visit.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HomeAnswer } from '../../../contract/home/types.ts';
import { saveMartPurchase } from '../../support/homeFixtures.ts';
import { homeWith } from '../../support/manageCardsFixtures.ts';
import { active, renderApp } from '../../support/renderApp.tsx';

const homePath = '/api/v1/home';

function homeWithBalance(balance: number): HomeAnswer {
  const home = homeWith([]);
  return { ...home, accountOverview: { ...home.accountOverview, balance } };
}

/** An answer with one purchase among the recent activity. */
function homeWithPurchase(): HomeAnswer {
  const home = homeWithBalance(4_016_78);
  return { ...home, accountOverview: { ...home.accountOverview, transactions: [saveMartPurchase] } };
}

type App = Awaited<ReturnType<typeof renderApp>>;
const homeCalls = (app: App) => app.cardApi.requests.filter((request) => request.path === homePath).length;

describe('home as the first screen', () => {
  it('asks for the account while the experiment config still loads, and shows that answer without asking again', async () => {
    const app = await renderApp('/home', active, { experiments: 'pending' });
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    expect(app.cardApi.isWaiting('/api/v1/experiments'), 'the config has not answered yet').toBe(true);
    expect(screen.queryByTestId('balance')).toBeNull();

    app.cardApi.answer(homePath, homeWithBalance(4_016_78));
    app.cardApi.answer('/api/v1/experiments', { statusCode: 3 }, 404);
    expect((await screen.findByTestId('balance')).textContent).toBe('$4,016.78');
    expect(homeCalls(app)).toBe(1);
  });

  it('asks again on refresh', async () => {
    const app = await renderApp('/home', active);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWithBalance(100));
    await screen.findByText('$1.00');
    await app.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWithBalance(250));
    expect(await screen.findByText('$2.50')).toBeTruthy();
    expect(homeCalls(app)).toBe(2);
  });

  it('left for another screen before home showed, its answer is never shown: home asks again later', async () => {
    const app = await renderApp('/home', active, { experiments: 'pending' });
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    await act(() => app.router.navigate({ to: '/manage-account' }));
    await waitFor(() => expect(app.router.state.resolvedLocation?.pathname).toBe('/manage-account'));
    // The early call answers after the cardholder has moved on.
    app.cardApi.answer(homePath, homeWithBalance(100));
    app.cardApi.answer('/api/v1/experiments', { statusCode: 3 }, 404);

    await act(() => app.router.navigate({ to: '/home' }));
    await waitFor(() => expect(homeCalls(app)).toBe(2));
    expect(screen.queryByTestId('balance'), 'nothing shown before the new answer').toBeNull();
    app.cardApi.answer(homePath, homeWithBalance(250));
    expect((await screen.findByTestId('balance')).textContent).toBe('$2.50');
  });

  it('a later visit, after another first screen, asks for itself once', async () => {
    const app = await renderApp('/manage-account', active);
    await act(() => app.router.navigate({ to: '/home' }));
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWithBalance(250));
    expect((await screen.findByTestId('balance')).textContent).toBe('$2.50');
    expect(homeCalls(app)).toBe(1);
  });
});

describe('the recent activity', () => {
  it('on the first screen, comes once the rest of the account is shown', async () => {
    const app = await renderApp('/home', active);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWithPurchase());
    expect((await screen.findByTestId('balance')).textContent).toBe('$4,016.78');
    expect(screen.queryByText('Purchase at Save Mart'), 'not laid out with the balance').toBeNull();
    expect(await screen.findByText('Purchase at Save Mart')).toBeTruthy();
    expect(screen.getByText('-$45.12')).toBeTruthy();
  });

  it('on the first screen whose early call was answered before it rendered, comes after the rest too', async () => {
    const app = await renderApp('/home', active, { experiments: 'pending' });
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWithPurchase());
    app.cardApi.answer('/api/v1/experiments', { statusCode: 3 }, 404);
    expect((await screen.findByTestId('balance')).textContent).toBe('$4,016.78');
    expect(screen.queryByText('Purchase at Save Mart'), 'not laid out with the balance').toBeNull();
    expect(await screen.findByText('Purchase at Save Mart')).toBeTruthy();
  });

  it('on a later visit, is rendered with the balance, so going back can restore the scroll into it', async () => {
    const app = await renderApp('/manage-account', active);
    await act(() => app.router.navigate({ to: '/home' }));
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWithPurchase());
    await screen.findByTestId('balance');
    // Not awaited: in the same render as the balance.
    expect(screen.getByText('Purchase at Save Mart')).toBeTruthy();
  });
});
