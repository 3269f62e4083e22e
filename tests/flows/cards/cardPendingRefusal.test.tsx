/**
 * Paying for a card that another tab or device has just ordered: the card API refuses with
 * 403 `{3, cardPending}` and charges nothing. The flow then reads the cards again and says the card
 * already on its way, with its arrival and the fee taken for it when it was ordered, the focus on the
 * heading, and no pay button left to press (it used to stay, and pressing it repeated the refusal until
 * a reload): /replacement-card and /order-card.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../../contract/cards/types.ts';
import {
  answerCall,
  cardOnItsWay,
  closeErrorModal,
  homePath,
  homeWith,
  idempotencyKeyOf,
  physicalCard,
  user,
  userPath,
  virtualCard,
} from '../../support/cardOrder.ts';
import { active, alertText, renderApp } from '../../support/renderApp.tsx';

const replacePath = '/api/v1/card/replace';
const orderPath = '/api/v1/order-card';
const done = (output: unknown) => ({ type: 'xstate.done', output });
const refusedCardPending = done({ statusCode: 3, reason: 'cardPending' });

/** The damaged card's replacement, ordered on another tab for the $5.00 fee while this one was on the confirmation. */
const orderedElsewhere: Card = { ...cardOnItsWay, id: '3b0f8d8e-1c7a-4a53-9d55-5d6a3f0e0020', replacesCardId: physicalCard.id };
const replacedElsewhere: Card = { ...physicalCard, replacedByCardId: orderedElsewhere.id };

type App = Awaited<ReturnType<typeof renderApp>>;
const requestsTo = (app: App, path: string) => app.cardApi.requests.filter((request) => request.path === path);

describe('a card already on its way, answered to the payment (cardPending)', () => {
  it('replacement: the "already on its way" screen with the fee taken for that card, its heading focused, no pay button', async () => {
    const app = await renderApp(`/replacement-card?cardId=${physicalCard.id}`, active);
    await answerCall(app.cardApi, userPath, done({ statusCode: 0, user }));
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 2350, cards: [virtualCard, physicalCard] })));
    await app.user.click(await screen.findByRole('button', { name: 'Continue' }));
    await app.user.click(await screen.findByRole('button', { name: 'Replace my card for $5.00' }));
    const key = idempotencyKeyOf(requestsTo(app, replacePath).at(-1)!);
    await answerCall(app.cardApi, replacePath, refusedCardPending);

    // While the cards are read again, the button stays busy: nothing to press, nothing sent twice.
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    expect(screen.getByRole('button', { name: 'Ordering your new card…' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Replace my card for $5.00' })).toBeNull();
    // The cards read again: the one on its way, with its fee.
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 2350, cards: [virtualCard, replacedElsewhere, orderedElsewhere] })));
    const heading = await screen.findByRole('heading', { level: 1, name: 'A new card is already on its way' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const main = within(screen.getByRole('main'));
    expect(main.getByText("We didn't order another card, and we didn't charge you for one.")).toBeTruthy();
    expect(screen.getByText(/It should arrive between Dec 8, 2026 and Dec 15, 2026\./)).toBeTruthy();
    expect(screen.getByText('We took $5.00 from your balance for it when it was ordered.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Replace my card for $5.00' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText('Step 2 of 3')).toBeNull();
    expect(alertText()).toBe('');
    expect(main.getByRole('link', { name: 'Manage cards' }).getAttribute('href')).toBe('/manage-cards');
    // One replacement asked for, refused: nothing more is sent.
    expect(requestsTo(app, replacePath).map(idempotencyKeyOf)).toEqual([key]);
    expect(app.cardApi.isWaiting(replacePath)).toBe(false);
  });

  it('replacement: when the cards read again get no answer, the card on its way is still said (no fee line, as it is not known), no pay button', async () => {
    const app = await renderApp(`/replacement-card?cardId=${physicalCard.id}`, active);
    await answerCall(app.cardApi, userPath, done({ statusCode: 0, user }));
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 2350, cards: [virtualCard, physicalCard] })));
    await app.user.click(await screen.findByRole('button', { name: 'Continue' }));
    await app.user.click(await screen.findByRole('button', { name: 'Replace my card for $5.00' }));
    await answerCall(app.cardApi, replacePath, refusedCardPending);
    await answerCall(app.cardApi, homePath, { type: 'xstate.error' });
    await closeErrorModal(app.user);

    expect(await screen.findByRole('heading', { level: 1, name: 'A new card is already on its way' })).toBeTruthy();
    expect(within(screen.getByRole('main')).getByText("We didn't order another card, and we didn't charge you for one.")).toBeTruthy();
    expect(screen.queryByText(/from your balance for it/)).toBeNull();
    expect(screen.queryByText(/This card is free/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Replace my card for $5.00' })).toBeNull();
    expect(requestsTo(app, replacePath)).toHaveLength(1);
  });

  it('order: the "already on its way" screen with the fee taken for that card and its activation once shipped, no order button', async () => {
    const app = await renderApp('/order-card', active);
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 2350, hasFundedAnyKind: true })));
    await answerCall(app.cardApi, userPath, done({ statusCode: 0, user }));
    await app.user.click(await screen.findByRole('button', { name: 'Continue' }));
    await app.user.click(await screen.findByRole('button', { name: 'Order my card for $5.00' }));
    await answerCall(app.cardApi, orderPath, refusedCardPending);

    // Home data read again: the card ordered on the other tab, shipped already.
    const shipped: Card = { ...cardOnItsWay, delivery: { ...cardOnItsWay.delivery!, shippedOn: '2026-11-25' } };
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 1850, cards: [virtualCard, shipped] })));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Your card is already on its way' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(within(screen.getByRole('main')).getByText("We didn't order another card, and we didn't charge you for one.")).toBeTruthy();
    expect(screen.getByText(/It should arrive between Dec 8, 2026 and Dec 15, 2026\./)).toBeTruthy();
    expect(screen.getByText('We took $5.00 from your balance for it when it was ordered.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Activate your card' }).getAttribute('href')).toBe('/activate/1');
    expect(screen.queryByRole('button', { name: 'Order my card for $5.00' })).toBeNull();
    expect(alertText()).toBe('');
    expect(requestsTo(app, orderPath)).toHaveLength(1);
  });
});
