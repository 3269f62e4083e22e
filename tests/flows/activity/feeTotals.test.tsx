/**
 * The fee totals under the activity list (Regulation E §1005.18(c)(5)) are counted by US Eastern
 * months, as statements are; the rows are dated by the phone's calendar. A phone outside Eastern time is
 * told the months are New York's; one in it is not told what it already sees.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TransactionsPage } from '../../../contract/activity/types.ts';
import { homeWith } from '../../support/manageCardsFixtures.ts';
import { active, renderApp } from '../../support/renderApp.tsx';

afterEach(() => vi.unstubAllEnvs());

const page: TransactionsPage = {
  statusCode: 0,
  transactions: [
    { id: 't1', amount: -500, timestamp: '2026-11-10T17:00:00Z', kind: 'fee', status: 'posted', counterparty: 'physicalCard', location: null, heldUntil: null },
  ],
  nextCursor: null,
  fees: { lastMonth: '2026-10', lastMonthCents: 0, year: '2026', yearCents: 500 },
};

/** The paragraph of totals, line by line, as the screen shows it. */
async function feeTotalsShown(): Promise<string[]> {
  const app = await renderApp('/transactions', active);
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
  app.cardApi.answer('/api/v1/home', homeWith([]));
  await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/transactions')).toBe(true));
  app.cardApi.answer('/api/v1/transactions', page);
  const totals = (await screen.findByText(/^Fees we charged you in October 2026: \$0\.00/)).closest('p')!;
  return [...totals.childNodes].filter((node) => node.nodeName !== 'BR').map((node) => node.textContent!);
}

const totals = ['Fees we charged you in October 2026: $0.00', 'Fees we charged you in 2026 so far: $5.00'];
const easternNote = 'Months are counted in US Eastern Time (New York), as on your statements.';

describe('the fee totals', () => {
  it('say the months are New York\'s on a phone in another time zone', async () => {
    vi.stubEnv('TZ', 'America/Chicago');
    expect(await feeTotalsShown()).toEqual([...totals, easternNote]);
  });

  it('say nothing of time zones on a phone in Eastern time', async () => {
    vi.stubEnv('TZ', 'America/New_York');
    expect(await feeTotalsShown()).toEqual(totals);
  });
});
