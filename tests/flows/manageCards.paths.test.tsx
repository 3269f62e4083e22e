/**
 * Generated path tests over the cards screen's chart (the cards from home data, the virtual card's
 * image and details from the processor, a lost or stolen report that loads the cards again), replayed
 * against the real app and router.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { manageCardsMachine } from '../../machines/cards/manageCards.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import {
  detailsPath,
  homePath,
  homeWith,
  imagePath,
  pendingCard,
  physicalCard,
  processorOrigin,
  reportPath,
  slideOf,
  virtualCard,
} from '../support/manageCardsFixtures.ts';
import { active, alertText, renderApp } from '../support/renderApp.tsx';
import { pressTryAgain } from '../support/tryAgain.ts';

const bothCards = homeWith([virtualCard, physicalCard]);
const physicalOnly = homeWith([physicalCard], null);
const imageUrl = `${processorOrigin}/card-images/${virtualCard.id}.png`;
const detailsUrl = `${processorOrigin}/card-details?token=tok-1`;
const lostCard: Card = { ...physicalCard, status: 'LOST', isActive: false, replacedByCardId: pendingCard.id };

const events = [
  { type: 'xstate.done.actor.getHome', output: bothCards },
  { type: 'xstate.done.actor.getHome', output: physicalOnly },
  { type: 'xstate.error.actor.getHome', error: new Error('no statusCode') },
  { type: 'user.retry' },
  { type: 'xstate.done.actor.getCardImageUrl', output: { statusCode: 0, url: imageUrl } },
  { type: 'xstate.done.actor.getCardImageUrl', output: { statusCode: 0, url: '' } },
  { type: 'xstate.error.actor.getCardImageUrl', error: new Error('no statusCode') },
  { type: 'user.showDetails' },
  { type: 'user.hideDetails' },
  { type: 'xstate.done.actor.getCardDetailsUrl', output: { statusCode: 0, url: detailsUrl } },
  { type: 'xstate.done.actor.getCardDetailsUrl', output: { statusCode: 3, reason: 'notAllowed' } },
  { type: 'xstate.error.actor.getCardDetailsUrl', error: new Error('no statusCode') },
  { type: 'user.reportLostStolen', card: physicalCard },
  { type: 'xstate.done.actor.lostStolen', output: { reportSent: true } },
  { type: 'xstate.done.actor.lostStolen', output: { reportSent: false } },
];
// Shortest paths: the details and the report multiply simple paths past the traversal limit; with the
// closing step they still take every transition from every state.
const run = generatePaths(manageCardsMachine, events, undefined, { shortest: true });

/**
 * The app, and what the card API answered along the path: the screen is checked against these, never
 * against the chart's own context (a chart that stores the wrong thing would be wrong with it).
 * `image` is the image address the cards should show: null until the virtual card's was answered, '' for none.
 */
type Ctx = Awaited<ReturnType<typeof renderApp>> & { homeAnswers: number; home: HomeAnswer | null; image: string | null };
const physicalName = 'Physical card ending in 5678';
const virtualName = 'Virtual card ending in 4821';
const cardsList = () => screen.queryByRole('list', { name: 'Your cards' });

async function closeErrorModal({ session }: Ctx) {
  await waitFor(() => expect(session.getSnapshot().matches({ errorModal: 'open' })).toBe(true));
  session.send({ type: 'user.closeErrorModal' });
}
const noErrorModal = ({ session }: Ctx) => expect(session.getSnapshot().hasTag('errorModalOpen')).toBe(false);

describe('manage cards chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(manageCardsMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(minimalCover(manageCardsMachine, run).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => ({ ...(await renderApp('/manage-cards?initialSlide=1', active)), homeAnswers: 0, home: null, image: null }),
        events: {
          'xstate.done.actor.getHome': async (ctx, event) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
            ctx.cardApi.answer(homePath, event.output);
            ctx.homeAnswers += 1;
            ctx.home = event.output as HomeAnswer;
            // With no virtual card there is no image to look up: a plain face at once.
            ctx.image = ctx.home.virtualCard ? null : '';
          },
          'xstate.error.actor.getHome': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
            ctx.cardApi.fail(homePath);
            await closeErrorModal(ctx);
          },
          'user.retry': async ({ user }) => pressTryAgain(user),
          'xstate.done.actor.getCardImageUrl': async (ctx, event) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
            ctx.cardApi.answer(imagePath(virtualCard.id), event.output);
            const output = event.output as { statusCode: number; url?: string };
            ctx.image = output.statusCode === 0 ? (output.url ?? '') : '';
          },
          // Quiet: no image is a plain card face, never the error modal.
          'xstate.error.actor.getCardImageUrl': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
            ctx.cardApi.fail(imagePath(virtualCard.id));
            ctx.image = '';
          },
          'user.showDetails': async ({ user }) => {
            const slide = slideOf(virtualName);
            const show = within(slide).queryByRole('button', { name: 'Show card details' }) ?? within(slide).getByRole('button', { name: 'Try again' });
            await user.click(show);
          },
          'user.hideDetails': async ({ user }) => user.click(within(slideOf(virtualName)).getByRole('button', { name: 'Hide card details' })),
          'xstate.done.actor.getCardDetailsUrl': async ({ cardApi }, event) => {
            const output = event.output as { statusCode: number };
            await waitFor(() => expect(cardApi.isWaiting(detailsPath(virtualCard.id))).toBe(true));
            // The processor's page in the app's language.
            const asked = cardApi.requests.filter((sent) => sent.path === detailsPath(virtualCard.id)).at(-1);
            expect(new URLSearchParams(asked?.search).get('locale')).toBe('en');
            cardApi.answer(detailsPath(virtualCard.id), output, output.statusCode === 0 ? 200 : 403);
          },
          'xstate.error.actor.getCardDetailsUrl': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(detailsPath(virtualCard.id))).toBe(true));
            ctx.cardApi.fail(detailsPath(virtualCard.id));
            await closeErrorModal(ctx);
          },
          'user.reportLostStolen': async ({ user }) =>
            user.click(within(slideOf(physicalName)).getByRole('button', { name: 'Report lost or stolen' })),
          // The report runs to its end through its own screens (machines/cards/lostStolen.ts).
          'xstate.done.actor.lostStolen': async ({ user, cardApi }, event) => {
            if ((event.output as { reportSent: boolean }).reportSent) {
              await user.click(screen.getByRole('button', { name: "It's lost" }));
              await user.click(screen.getByRole('button', { name: 'Block my card and send a new one' }));
              await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
              cardApi.answer(reportPath, { statusCode: 0, card: lostCard, replacement: pendingCard });
              await user.click(await screen.findByRole('button', { name: 'Back to your cards' }));
            } else {
              await user.click(screen.getByRole('button', { name: 'Cancel' }));
            }
          },
        },
        states: [
          {
            when: (s) => s.matches('loadingCards') || s.matches('loadingImage'),
            then: async ({ cardApi }, s) => {
              expect(await screen.findByRole('status', { name: 'Loading your cards' })).toBeTruthy();
              expect(screen.getByRole('heading', { level: 1, name: 'Manage cards' })).toBeTruthy();
              expect(cardsList()).toBeNull();
              const waitingFor = s.matches('loadingCards') ? homePath : imagePath(virtualCard.id);
              await waitFor(() => expect(cardApi.isWaiting(waitingFor)).toBe(true));
            },
          },
          {
            when: (s) => s.matches('failed'),
            then: async () => {
              await waitFor(() => expect(alertText()).toBe("We couldn't load your cards. Please try again.Try again"));
              expect(cardsList()).toBeNull();
            },
          },
          {
            when: (s) => s.matches({ ready: 'reporting' }),
            then: async () => {
              expect(await screen.findByRole('heading', { level: 1, name: 'Report a lost or stolen card' })).toBeTruthy();
              // The list waits, hidden, on the card it was on.
              expect(screen.queryByRole('heading', { level: 1, name: 'Manage cards' })).toBeNull();
            },
          },
          {
            when: (s) => s.matches('ready'),
            then: async (ctx, s) => {
              await waitFor(() => expect(cardsList()).not.toBeNull());
              // Spec §2: the image address looked up before the cards show; '' when there is none.
              expect(ctx.image).not.toBeNull();
              const physical = slideOf(physicalName);
              // No list a screen reader announces as "list, 0 items" (the virtual card has no actions).
              for (const list of within(cardsList()!).queryAllByRole('list')) expect(within(list).queryAllByRole('listitem').length).toBeGreaterThan(0);
              expect(within(physical).getByText('Active')).toBeTruthy();
              expect(within(physical).getByRole('switch', { name: 'Lock card ending in 5678' })).toBeTruthy();
              expect(within(physical).getByRole('link', { name: 'Set PIN' }).getAttribute('href')).toMatch(/^\/reset-pin\?/);
              expect(within(physical).getByRole('link', { name: 'Replace a damaged card' }).getAttribute('href')).toBe(`/replacement-card?cardId=${physicalCard.id}`);
              if (!ctx.home?.virtualCard) {
                expect(screen.queryByRole('heading', { level: 2, name: virtualName })).toBeNull();
                expect(screen.queryByRole('button', { name: 'Show card details' })).toBeNull();
                return;
              }
              // Opens on the card initialSlide names: the second, the physical card.
              expect(screen.getByText('Card 2 of 2')).toBeTruthy();
              expect(physical.getAttribute('aria-current')).toBe('true');
              const virtual = slideOf(virtualName);
              const image = virtual.querySelector('img');
              if (ctx.image) expect(image?.getAttribute('src')).toBe(ctx.image);
              else {
                expect(image).toBeNull();
                expect(virtual.querySelector('.card-face')?.textContent).toContain('•••• 4821');
              }
              expect(within(virtual).queryByRole('link', { name: 'Set PIN' })).toBeNull();
              expect(within(virtual).queryByRole('button', { name: 'Report lost or stolen' })).toBeNull();
              const frame = within(virtual).queryByTitle("Your virtual card's number, expiry date and CVV");
              if (s.matches({ ready: 'showingDetails' })) {
                expect(frame?.getAttribute('src')).toBe(detailsUrl);
                expect(within(virtual).getByRole('button', { name: 'Hide card details' })).toBeTruthy();
                // The button that asked is gone: the focus goes to the details.
                await waitFor(() => expect(document.activeElement).toBe(frame));
              } else expect(frame).toBeNull();
              if (s.matches({ ready: 'loadingDetails' })) {
                // Unavailable, not disabled: a keyboard user's focus stays on it while the call runs.
                const opening = within(virtual).getByRole('button', { name: 'Opening your card details…' });
                expect(opening.getAttribute('aria-disabled')).toBe('true');
                expect((opening as HTMLButtonElement).disabled).toBe(false);
                await waitFor(() => expect(ctx.cardApi.isWaiting(detailsPath(virtualCard.id))).toBe(true));
              }
              if (s.matches({ ready: 'detailsFailed' })) {
                await waitFor(() => expect(alertText().trim()).toBe("We couldn't show your card details. Please try again.Try again"));
              } else expect(alertText().trim()).toBe('');
              if (s.matches({ ready: 'browsing' })) expect(within(virtual).getByRole('button', { name: 'Show card details' })).toBeTruthy();
              noErrorModal(ctx);
              // The card number is never in the card API's answers, only on the processor's own page.
              expect(document.body.textContent).not.toMatch(/\d{12,}/);
              expect(ctx.homeAnswers).toBeGreaterThan(0);
            },
          },
        ],
      });
    },
    30_000,
  );
});

describe('manage cards, beside the paths', () => {
  it.each([
    ['off', false, '/manage-card'],
    ['on', true, '/manage-cards'],
  ])('/manage-card with the virtual-cards experiment %s shows the cards at %s', async (_name, virtualCards, pathname) => {
    const flags = { virtualCards, directDeposit: false, cashLoadMap: false, showNewDebitDetails: false };
    const app = await renderApp('/manage-card', active, { experiments: flags });
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    expect(app.router.state.location.pathname).toBe(pathname);
    expect(screen.getByRole('heading', { level: 1, name: 'Manage cards' })).toBeTruthy();
  });

  it('ignores an initialSlide that is not a card number', async () => {
    const app = await renderApp('/manage-cards?initialSlide=-3', active);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, bothCards);
    await waitFor(() => expect(app.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
    app.cardApi.answer(imagePath(virtualCard.id), { statusCode: 0, url: 'https://elsewhere.example/card.png' });
    await screen.findByRole('list', { name: 'Your cards' });
    expect(screen.getByText('Card 1 of 2')).toBeTruthy();
    expect(slideOf(virtualName).getAttribute('aria-current')).toBe('true');
    // An image that is not on the processor's origin is not loaded: a plain card face instead.
    expect(slideOf(virtualName).querySelector('img')).toBeNull();
  });

  it.each([
    ['only the virtual card', true, [virtualCard]],
    ['a lost card and nothing on its way', true, [virtualCard, { ...physicalCard, status: 'LOST', isActive: false } as Card]],
    ['a working physical card', false, [virtualCard, physicalCard]],
    ['a physical card on its way', false, [virtualCard, pendingCard]],
  ])('with %s, "Order a physical card" is offered: %s', async (_name, offered, cards) => {
    const app = await renderApp('/manage-cards', active);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWith(cards));
    await waitFor(() => expect(app.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
    app.cardApi.answer(imagePath(virtualCard.id), { statusCode: 0, url: '' });
    await screen.findByRole('list', { name: 'Your cards' });
    const order = screen.queryByRole('link', { name: 'Order a physical card' });
    if (!offered) {
      expect(order).toBeNull();
      return;
    }
    expect(order?.getAttribute('href')).toBe('/order-card');
    await app.user.click(order!);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/order-card'));
  });

  it('moves between cards with the Previous and Next buttons, saying which card is shown', async () => {
    const app = await renderApp('/manage-cards', active);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWith([virtualCard, physicalCard, pendingCard]));
    await waitFor(() => expect(app.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
    app.cardApi.answer(imagePath(virtualCard.id), { statusCode: 0, url: '' });
    await screen.findByText('Card 1 of 3');
    expect(screen.getByRole('button', { name: 'Previous card' }).getAttribute('aria-disabled')).toBe('true');
    await app.user.click(screen.getByRole('button', { name: 'Next card' }));
    await app.user.click(screen.getByRole('button', { name: 'Next card' }));
    expect(screen.getByText('Card 3 of 3')).toBeTruthy();
    // At the last card the button says it can go no further and keeps the keyboard's focus.
    const next = screen.getByRole('button', { name: 'Next card' });
    expect(next.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(next);
    await app.user.click(next);
    expect(screen.getByText('Card 3 of 3')).toBeTruthy();
    const pending = slideOf('Physical card');
    expect(pending.getAttribute('aria-current')).toBe('true');
    expect(within(pending).getByText('Arrives between Dec 8, 2026 and Dec 15, 2026.')).toBeTruthy();
    // Not shipped yet, so not in the cardholder's hands: nothing to activate until it ships.
    expect(within(pending).queryByRole('link', { name: 'Activate' })).toBeNull();
    expect(within(pending).queryByRole('link', { name: 'Set PIN' })).toBeNull();
  });

  it.each([
    ['a shipped card', pendingCard, '/activate'],
    ['a shipped replacement, as a replacement', { ...pendingCard, replacesCardId: physicalCard.id }, '/activate?isReplacement=%22true%22'],
  ])('offers the activation of %s', async (_name, card, href) => {
    const app = await renderApp('/manage-cards', active);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWith([virtualCard, { ...card, delivery: { ...card.delivery!, shippedOn: '2026-12-01' } }]));
    await waitFor(() => expect(app.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
    app.cardApi.answer(imagePath(virtualCard.id), { statusCode: 0, url: '' });
    await screen.findByRole('list', { name: 'Your cards' });
    expect(screen.getByRole('link', { name: 'Activate' }).getAttribute('href')).toBe(href);
  });
});
