/** Home data and cards for the path tests of ordering, activating and replacing a physical card. */
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { User } from '../../contract/account/types.ts';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import type { FakeCardApi } from './fakeCardApi.ts';

export const homePath = '/api/v1/home';
export const userPath = '/api/v1/user';

/** The cardholder GET /user answers: the address a card is mailed to. */
export const user: User = {
  fullName: 'Maria Lopez',
  email: 'demo@providers.test',
  phone: '5592014477',
  address: { street1: '1420 Fulton St', street2: 'Apt 3', city: 'Fresno', state: 'CA', zip: '93721' },
  isInternal: false,
  canUpdateAddress: true,
  canUpdatePhone: true,
};

/**
 * The amounts shown on a review or a receipt, as [label, amount] rows, the amounts as they are seen:
 * without the words only a screen reader is given (a negative amount's "minus $5.00").
 */
export function moneyLines(): string[][] {
  return [...document.querySelectorAll('.detail-list > div')].map((row) => [row.querySelector('dt')!.textContent!, seenText(row.querySelector('dd')!)]);
}

function seenText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const unseen of copy.querySelectorAll('.visually-hidden')) unseen.remove();
  return copy.textContent!;
}

export const virtualCard: Card = {
  id: '3b0f8d8e-1c7a-4a53-9d55-5d6a3f0e0001',
  type: 'VIRTUAL',
  status: 'ACTIVE',
  frozen: false,
  isActive: true,
  isPending: false,
  lastFour: '4821',
  delivery: null,
  replacesCardId: null,
  replacedByCardId: null,
};

export const physicalCard: Card = {
  ...virtualCard,
  id: '3b0f8d8e-1c7a-4a53-9d55-5d6a3f0e0002',
  type: 'PHYSICAL',
  lastFour: '7390',
};

/** A physical card on its way (ordered 2026-11-23: Thanksgiving and the weekends skipped). */
export const cardOnItsWay: Card = {
  ...physicalCard,
  id: '3b0f8d8e-1c7a-4a53-9d55-5d6a3f0e0003',
  status: 'SHIPPED',
  isActive: false,
  isPending: true,
  lastFour: null,
  delivery: { earliest: '2026-12-08', latest: '2026-12-15', shippedOn: null, deliveredOn: null, feeCents: 500 },
};

export function homeWith(overrides: { balance?: number; cards?: Card[]; hasFundedAnyKind?: boolean; pendingCard?: Card | null } = {}): HomeAnswer {
  const cards = overrides.cards ?? [virtualCard];
  const hasFundedAnyKind = overrides.hasFundedAnyKind ?? true;
  return {
    statusCode: 0,
    accountOverview: {
      balance: overrides.balance ?? 2350,
      onHold: 0,
      cards,
      transactions: [],
      prn: '400012345678',
      flags: { hasFunded: hasFundedAnyKind, hasFundedAnyKind },
      ebtRewardOwed: 0,
      ebtRewardsClaimedThisPeriod: 0,
    },
    registrationWave: null,
    pendingCard: overrides.pendingCard ?? cards.find((card) => card.isPending) ?? null,
    virtualCard: { id: virtualCard.id },
    prn: '400012345678',
    hasFundedAnyKind,
  };
}

/** The HTTP status the card API answers a card call's statusCode with. */
export const httpStatusOf = (statusCode: number) =>
  statusCode === 0 ? 200 : statusCode === 3 ? 403 : statusCode === 201 ? 429 : statusCode === 2 ? 400 : 500;

/** Answers the oldest waiting call to `path` as an event of a path says (`xstate.done.*` output, or no answer for `xstate.error.*`). */
export async function answerCall(cardApi: FakeCardApi, path: string, event: { type: string; output?: unknown }) {
  await waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
  if (event.type.startsWith('xstate.error')) {
    cardApi.fail(path);
    return;
  }
  const output = event.output as { statusCode: number };
  cardApi.answer(path, output, httpStatusOf(output.statusCode));
}

/** No statusCode: the app's error modal says so, and the cardholder closes it. */
export async function closeErrorModal(user: { click: (element: Element) => Promise<void> }) {
  await user.click(await screen.findByRole('button', { name: 'OK' }));
}

/** The Idempotency-Key a request was sent with. */
export const idempotencyKeyOf = (request: { init?: RequestInit }) => new Headers(request.init?.headers).get('idempotency-key');

/**
 * What a money review and confirmation should say, as the card API answered along a path: the balance
 * last answered (home data, or a refusal short of money saying the balance now) and the last refusal's
 * reason. Path replays check the screen against this, never against the chart's context, so a chart
 * that stores the wrong balance or reason cannot make the screen and the expectation wrong together.
 */
export type MoneyAnswered = { balanceCents: number | null; refusal: string | null };
export const noMoneyAnswer: MoneyAnswered = { balanceCents: null, refusal: null };

/** Home data read (on loading, or again before paying): its balance, and an earlier refusal no longer said. */
export const afterHome = (home: HomeAnswer): MoneyAnswered => ({ balanceCents: home.accountOverview.balance, refusal: null });

/** The order or replacement call answered: paid, refused (with the balance now when short of money), or neither. */
export function afterMoneyAnswer(previous: MoneyAnswered, output: { statusCode: number; reason?: string; balanceCents?: number }): MoneyAnswered {
  if (output.statusCode === 0) return { balanceCents: output.balanceCents ?? previous.balanceCents, refusal: null };
  if (output.statusCode === 3) return { balanceCents: output.balanceCents ?? previous.balanceCents, refusal: output.reason ?? null };
  return previous;
}

/**
 * "Already on its way" as the card on its way was answered last (null: none known): its fee line says
 * whether the fee was taken when it was ordered; with no card known, no fee is said.
 */
export function expectFeeTakenLine(onItsWay: Card | null): void {
  expect(screen.queryByText(/from your balance for it|This card is free/)?.textContent ?? null).toBe(
    !onItsWay
      ? null
      : onItsWay.delivery?.feeCents
        ? 'We took $5.00 from your balance for it when it was ordered.'
        : 'This card is free: nothing was taken from your balance for it.',
  );
}

/**
 * After a refusal for the account's cards (a payment was sent: cardPending, or notAllowed for an order)
 * the screen that says why ("already on its way", "you already have") says nothing more was ordered or
 * charged; found on loading (nothing was asked for), it does not.
 */
export function expectNothingOrderedSaid(paymentsSent: number, refused: boolean): void {
  const said = within(screen.getByRole('main')).queryByText("We didn't order another card, and we didn't charge you for one.") !== null;
  if (refused) {
    expect(paymentsSent).toBeGreaterThan(0);
    expect(said).toBe(true);
  } else {
    expect(paymentsSent).toBe(0);
    expect(said).toBe(false);
  }
}
