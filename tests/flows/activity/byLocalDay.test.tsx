/**
 * The activity screen groups rows under the day they happened on the phone's calendar, not UTC's: a
 * 9 pm purchase in California is 5 am the next day in UTC, and must not show under tomorrow. Across
 * the end of daylight saving time (November 1, 2026 in the US) too.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transaction, TransactionsPage } from '../../../contract/activity/types.ts';
import { homeWith } from '../../support/manageCardsFixtures.ts';
import { active, renderApp } from '../../support/renderApp.tsx';

afterEach(() => vi.unstubAllEnvs());

const purchase = (id: string, timestamp: string, counterparty: string): Transaction => ({
  id,
  amount: -500,
  timestamp,
  kind: 'purchase',
  status: 'posted',
  counterparty,
  location: null,
  heldUntil: null,
});

const page: TransactionsPage = {
  statusCode: 0,
  transactions: [
    purchase('t1', '2026-11-21T09:30:00Z', 'Food 4 Less'), // 1:30 AM Nov 21 in California, 11:30 PM Nov 20 in Honolulu
    purchase('t2', '2026-11-21T05:00:00Z', 'Save Mart'), // 9:00 PM Nov 20 in California
    purchase('t3', '2026-11-01T09:30:00Z', 'Chevron'), // 1:30 AM PST Nov 1, after the clocks went back
    purchase('t4', '2026-11-01T07:30:00Z', 'Walgreens'), // 12:30 AM PDT Nov 1
    purchase('t5', '2026-11-01T06:59:00Z', 'Dollar General'), // 11:59 PM PDT Oct 31
  ],
  nextCursor: null,
};

/** Each day's heading with the merchants listed under it, as the screen shows them. */
async function daysShown(): Promise<[string, string[]][]> {
  const app = await renderApp('/transactions', active);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', homeWith([]));
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transactions')).toBe(true));
  app.cardApi.answer('/api/v1/transactions', page);
  await screen.findByText("That's all of your activity.");
  return screen.getAllByRole('heading', { level: 2 }).map((heading) => {
    const day = heading.closest('section')!;
    const rows = within(day)
      .getAllByRole('link')
      .map((row) => row.querySelector('.activity-description')!.textContent!.replace('Purchase at ', ''));
    return [heading.textContent!, rows];
  });
}

describe('activity grouped by day', () => {
  it("on the phone's calendar in California, across the end of daylight saving time", async () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    expect(await daysShown()).toEqual([
      ['Nov 21, 2026', ['Food 4 Less']],
      ['Nov 20, 2026', ['Save Mart']],
      ['Nov 1, 2026', ['Chevron', 'Walgreens']],
      ['Oct 31, 2026', ['Dollar General']],
    ]);
  });

  it("on the phone's calendar in Hawaii", async () => {
    vi.stubEnv('TZ', 'Pacific/Honolulu');
    expect(await daysShown()).toEqual([
      ['Nov 20, 2026', ['Food 4 Less', 'Save Mart']],
      ['Oct 31, 2026', ['Chevron', 'Walgreens', 'Dollar General']],
    ]);
  });
});
