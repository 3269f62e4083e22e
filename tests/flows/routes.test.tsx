/** Route table behaviour of spec §2 through the real router: redirects, data-dependent guards, visits. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { active, renderApp, signedOut } from '../support/renderApp.tsx';

const homeWith = (overrides: Record<string, unknown>) => ({
  statusCode: 0,
  accountOverview: {
    balance: 0,
    cards: [],
    transactions: [],
    prn: '400012345678',
    flags: { hasFunded: false, hasFundedAnyKind: false },
    ebtRewardOwed: 0,
    ebtRewardsClaimedThisPeriod: 0,
  },
  registrationWave: null,
  pendingCard: null,
  virtualCard: null,
  prn: '400012345678',
  hasFundedAnyKind: false,
  ...overrides,
});

const pendingCard = { id: 'p1', type: 'PHYSICAL', status: 'SHIPPED', frozen: false, isActive: false, isPending: true, lastFour: '7390' };

async function answerHome(app: Awaited<ReturnType<typeof renderApp>>, body: unknown) {
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', body);
}

describe('route table', () => {
  it('sends / to home, and home without tokens to sign-in remembering it', async () => {
    const app = await renderApp('/', signedOut);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/signin'));
    expect(app.router.state.location.search).toEqual({ redirect: '/home' });
  });

  it('blocks /debugger always', async () => {
    const app = await renderApp('/debugger', active);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
  });

  it('cancels /register outside the companion app', async () => {
    const app = await renderApp('/register', signedOut);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/signin'));
  });

  it('opens order-card at step 2 when the account was already funded', async () => {
    const app = await renderApp('/order-card', active);
    await answerHome(app, homeWith({ hasFundedAnyKind: true }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/order-card/2'));
  });

  it('keeps order-card at step 1 for an account never funded', async () => {
    const app = await renderApp('/order-card/1', active);
    await answerHome(app, homeWith({ hasFundedAnyKind: false }));
    expect(await screen.findByText('This screen is not available yet.')).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/order-card/1');
  });

  it('sends activation arriving from outside to home when no card awaits activation', async () => {
    const app = await renderApp('/activate/1', active);
    await answerHome(app, homeWith({ pendingCard: null }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
  });

  it('turns the carrier deep link into activation step 1 with source=carrier', async () => {
    const app = await renderApp('/carrier-deep-link', active);
    await answerHome(app, homeWith({ pendingCard }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/activate/1'));
    expect(app.router.state.location.search).toMatchObject({ source: 'carrier' });
  });

  it('sends direct-deposit/form to its first step', async () => {
    const app = await renderApp('/direct-deposit/form', active);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/direct-deposit/form/1'));
  });

  it('logs route visits with name, params, query and the previous route', async () => {
    const app = await renderApp('/statements?from=test', active);
    await screen.findByText('This screen is not available yet.');
    await app.router.navigate({ to: '/tax' });
    await screen.findByText('This screen is not available yet.');
    await app.services.analytics.flush();
    const visits = app.tracked.filter((event) => event.name === 'route.visit').map((event) => event.properties);
    expect(visits).toEqual([
      { name: '/statements', params: {}, query: { from: 'test' }, previousRouteName: null },
      { name: '/tax', params: {}, query: {}, previousRouteName: '/statements' },
    ]);
  });
});
