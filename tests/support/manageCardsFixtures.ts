/**
 * The cards screen's test data and steps (manage cards, lock, lost or stolen, PIN): a cardholder's
 * cards as GET /home answers them, and the way into /manage-cards with the card API answering.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { sandboxAppConfig } from '../../src/app/appConfig.ts';
import type { FakeCardApi } from './fakeCardApi.ts';

export const homePath = '/api/v1/home';
export const imagePath = (id: string) => `/api/v1/card/image-url/${id}`;
export const detailsPath = (id: string) => `/api/v1/card/details-url/${id}`;
export const freezePath = '/api/v1/card/freeze';
export const unfreezePath = '/api/v1/card/unfreeze';
export const reportPath = '/api/v1/card/report-lost-stolen';
export const pinFormPath = '/api/v1/pin-change-form-url';
export const commitPinPath = '/api/v1/commit-pin-change';

/** The sandbox processor origin the app allowlists when index.html carries no config (src/app/appConfig.ts). */
export const processorOrigin = sandboxAppConfig.processorOrigins[0]!;

export const virtualCard: Card = {
  id: '0b7f5a52-1c3e-4a8e-9d27-5f0c3e1a0001',
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
  id: '0b7f5a52-1c3e-4a8e-9d27-5f0c3e1a0002',
  type: 'PHYSICAL',
  lastFour: '5678',
};

/** A physical card on its way: no number yet, a delivery window. */
export const pendingCard: Card = {
  ...physicalCard,
  id: '0b7f5a52-1c3e-4a8e-9d27-5f0c3e1a0003',
  status: 'SHIPPED',
  isActive: false,
  isPending: true,
  lastFour: null,
  delivery: { earliest: '2026-12-08', latest: '2026-12-15', shippedOn: null, deliveredOn: null, feeCents: 500 },
};

export function homeWith(cards: Card[], virtual: Card | null = cards.find((card) => card.type === 'VIRTUAL') ?? null): HomeAnswer {
  return {
    statusCode: 0,
    accountOverview: {
      balance: 123456,
      onHold: 0,
      cards,
      transactions: [],
      prn: '400012345678',
      flags: { hasFunded: true, hasFundedAnyKind: true },
      ebtRewardOwed: 0,
      ebtRewardsClaimedThisPeriod: 0,
    },
    registrationWave: null,
    pendingCard: cards.find((card) => card.isPending) ?? null,
    virtualCard: virtual ? { id: virtual.id } : null,
    prn: '400012345678',
    hasFundedAnyKind: true,
  };
}

/** HTTP statuses of the card answers (contract/cards/routes.ts). */
export const httpStatusOf = (answer: { statusCode: number }) =>
  ({ 0: 200, 2: 400, 3: 403, 5: 500 })[answer.statusCode] ?? 400;

/** Answers the cards screen's loads: home data, then the virtual card's image (none unless given). */
export async function answerCardsLoad(cardApi: FakeCardApi, home: HomeAnswer, imageUrl = '') {
  await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
  cardApi.answer(homePath, home);
  if (home.virtualCard) {
    await waitFor(() => expect(cardApi.isWaiting(imagePath(home.virtualCard!.id))).toBe(true));
    cardApi.answer(imagePath(home.virtualCard.id), { statusCode: 0, url: imageUrl });
  }
  await screen.findByRole('list', { name: 'Your cards' });
}

/** The slide of the card whose heading is `name` ("Physical card ending in 5678"). */
export function slideOf(name: string): HTMLElement {
  const heading = within(screen.getByRole('list', { name: 'Your cards' })).getByRole('heading', { level: 2, name });
  return heading.closest('li')!;
}

/** The JSON body of the last request to `path`. */
export function lastBody(cardApi: FakeCardApi, path: string): unknown {
  const request = cardApi.requests.filter((sent) => sent.path === path).at(-1);
  return request ? JSON.parse(String(request.init?.body)) : undefined;
}
