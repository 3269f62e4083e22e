/**
 * Back from a finished flow's last screen (a card's receipt, a reset's done screen) goes back to where
 * the flow was opened from. Each earlier step's address would only show the finished screen again: the
 * cardholder pressed Back and nothing seemed to happen, once for every step the flow had.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerCall, cardOnItsWay, homePath, homeWith, user, userPath } from '../../support/cardOrder.ts';
import { active, renderApp } from '../../support/renderApp.tsx';

const done = (output: unknown) => ({ type: 'xstate.done', output });

describe('Back from a finished flow', () => {
  it('leaves a card order at its receipt for the screen it was opened from, past its earlier steps', async () => {
    const app = await renderApp('/statements', active);
    await app.router.navigate({ to: '/order-card/{-$step}', params: { step: undefined } });
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 2350, hasFundedAnyKind: true })));
    await answerCall(app.cardApi, userPath, done({ statusCode: 0, user }));
    await app.user.click(await screen.findByRole('button', { name: 'Continue' }));
    await app.user.click(await screen.findByRole('button', { name: 'Order my card for $5.00' }));
    await answerCall(app.cardApi, '/api/v1/order-card', done({ statusCode: 0, card: cardOnItsWay, feeCents: 500, balanceCents: 1850 }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/order-card/4'));
    // The flow's steps are in the history: review, confirm, receipt.
    expect(app.router.history.length).toBe(4);

    app.router.history.back();
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/statements'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Monthly statements' })).toBeTruthy();
  });

  it('still steps back inside a flow that is not finished', async () => {
    const app = await renderApp('/statements', active);
    await app.router.navigate({ to: '/order-card/{-$step}', params: { step: undefined } });
    await answerCall(app.cardApi, homePath, done(homeWith({ balance: 2350, hasFundedAnyKind: true })));
    await answerCall(app.cardApi, userPath, done({ statusCode: 0, user }));
    await app.user.click(await screen.findByRole('button', { name: 'Continue' }));
    await screen.findByRole('button', { name: 'Order my card for $5.00' });
    expect(app.router.state.location.pathname).toBe('/order-card/3');

    app.router.history.back();
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/order-card/2'));
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeTruthy();
  });
});
