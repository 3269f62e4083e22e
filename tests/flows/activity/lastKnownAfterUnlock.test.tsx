/**
 * The app opened again with its access token expired (a locked session, whose copy is not shown): once
 * the unlock code opens it, the screen's fresh answers are kept as the last-known copy, for its account.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { lastKnownKey } from '../../../src/shared/offline/lastKnown.ts';
import { homeWith } from '../../support/manageCardsFixtures.ts';
import { storageWith } from '../../support/lastKnown.ts';
import { active, renderApp } from '../../support/renderApp.tsx';

const b64 = (t: string) => btoa(t).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const token = (exp: number, sig = 'sig') => `${b64('{"alg":"HS256"}')}.${b64(JSON.stringify({ sub: 'user-1', exp }))}.${sig}`;
const now = () => Math.floor(Date.now() / 1000);
const home = homeWith([]);
const old = { ...home, accountOverview: { ...home.accountOverview, balance: 11_100 } };
const fresh = { ...home, accountOverview: { ...home.accountOverview, balance: 77_700 } };

/** The unlock dialog the expired token brought: the code, and a new access token for the same cardholder. */
async function unlock(app: Awaited<ReturnType<typeof renderApp>>) {
  const dialog = await screen.findByRole('dialog', { name: 'Enter your unlock code' });
  await app.user.type(within(dialog).getByLabelText('Unlock code'), '2580');
  await app.user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/refresh-tokens')).toBe(true));
  app.cardApi.answer('/api/v1/refresh-tokens', { statusCode: 0, access: token(now() + 900, 'renewed'), refresh: 'refresh-2', isInternal: false });
}

it('the app restarted with an expired access token: after the unlock, the fresh home answer is kept', async () => {
  const storage = storageWith('user-1', (s) => s.home.keep('user-1', old, new Date('2026-11-20T10:00:00Z')));
  const app = await renderApp('/home', { ...active, accessToken: token(now() - 60) }, { storage });
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
  await unlock(app);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', fresh);
  expect(await screen.findByText('$777.00')).toBeTruthy();
  // The fresh answer replaces the old copy.
  expect(JSON.parse(storage.getItem(lastKnownKey)!).home.data.accountOverview.balance).toBe(77_700);
});

it('activity, opened with an expired access token: after the unlock, the fresh page is kept', async () => {
  const page = { statusCode: 0, transactions: [{ id: 't1', amount: -1240, timestamp: '2026-11-20T15:00:00Z', kind: 'purchase', status: 'posted', counterparty: 'Save Mart', location: 'Fresno, CA', heldUntil: null }], nextCursor: null };
  const storage = storageWith('user-1', () => {});
  const app = await renderApp('/transactions', { ...active, accessToken: token(now() - 60) }, { storage });
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transactions')).toBe(true));
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/transactions', { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
  app.cardApi.answer('/api/v1/home', { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
  await unlock(app);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transactions')).toBe(true));
  app.cardApi.answer('/api/v1/transactions', page);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', fresh);
  expect(await screen.findByText('Purchase at Save Mart')).toBeTruthy();
  expect(JSON.parse(storage.getItem(lastKnownKey) ?? '{}').activity?.data.transactions[0].id).toBe('t1');
});
