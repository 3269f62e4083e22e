/**
 * Generated path tests over the replacement chart (a damaged card, with its money confirmation),
 * replayed against the real app and router: the user loaded first (spec §2), the card the query names,
 * what the cardholder is told (the old card works until the new one ships), the fee, and what is sent.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { cardDeliveryWindow, usCalendarDay } from '../../contract/shared/businessDays.ts';
import { replacementMachine } from '../../machines/cards/replacement.ts';
import { coverageOf, describePath, minimalCover, replayPath } from '../support/chartCoverage.ts';
import {
  afterHome,
  afterMoneyAnswer,
  answerCall,
  cardOnItsWay,
  closeErrorModal,
  expectNothingOrderedSaid,
  expectFeeTakenLine,
  homePath,
  homeWith,
  idempotencyKeyOf,
  moneyLines,
  noMoneyAnswer,
  physicalCard,
  user,
  userPath,
  virtualCard,
  type MoneyAnswered,
} from '../support/cardOrder.ts';
import { generateListedPaths } from '../support/listedPaths.ts';
import { active, alertText, renderApp, expectTabTitle } from '../support/renderApp.tsx';

const replacePath = '/api/v1/card/replace';
const listed = (event: EventObject & Record<string, unknown>): EventObject => event;
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('no statusCode') });

const userLoaded = done('getUser', { statusCode: 0, user });
const withCard = homeWith({ balance: 2350, cards: [virtualCard, physicalCard] });
const newCard: Card = { ...cardOnItsWay, id: '3b0f8d8e-1c7a-4a53-9d55-5d6a3f0e0010', replacesCardId: physicalCard.id };
const freeReplacement: Card = { ...newCard, delivery: { ...newCard.delivery!, feeCents: 0 } };
/** Replaced on another tab or device while this one was on the confirmation: its new card on its way. */
const replacedElsewhere = homeWith({ cards: [virtualCard, { ...physicalCard, replacedByCardId: newCard.id }, newCard] });
const cardPendingRefusal = done('replaceCard', { statusCode: 3, reason: 'cardPending' });

const runs = [
  // Loading: the user, then the cards; what there is to replace.
  generateListedPaths(replacementMachine, [
    userLoaded,
    failed('getUser'),
    done('getHome', withCard),
    done('getHome', replacedElsewhere),
    done('getHome', homeWith({ cards: [virtualCard] })),
    failed('getHome'),
    { type: 'user.retry' },
  ]),
  // The money confirmation.
  generateListedPaths(replacementMachine, [
    userLoaded,
    done('getHome', withCard),
    { type: 'user.continue' },
    { type: 'user.back' },
    listed({ type: 'user.confirm', idempotencyKey: 'key-from-the-app' }),
    listed({ type: 'user.goToStep', step: 1 }),
    // Paid, and a deposit came meanwhile: the receipt shows the balance the server answers ($23.50 loaded, less $5.00, plus $200.00).
    done('replaceCard', { statusCode: 0, card: newCard, feeCents: 500, balanceCents: 21850 }),
    // Refused short of money: the server says the balance now, which the review then shows.
    done('replaceCard', { statusCode: 3, reason: 'insufficientFunds', balanceCents: 120 }),
    done('replaceCard', { statusCode: 3, reason: 'notAllowed' }),
    // A new card already on its way: the cards read again (here without it, or with no answer), then said.
    cardPendingRefusal,
    done('replaceCard', { statusCode: 5 }),
    failed('replaceCard'),
    // The balance read again after the refusal does not load.
    failed('getHome'),
  ]),

  // A lost card's replacement on its way, sent free when the card was reported.
  generateListedPaths(replacementMachine, [
    userLoaded,
    done('getHome', homeWith({ cards: [virtualCard, { ...physicalCard, status: 'LOST', isActive: false, replacedByCardId: newCard.id }, freeReplacement] })),
  ]),
  // A balance that does not cover the fee: said before anything is sent.
  generateListedPaths(replacementMachine, [userLoaded, done('getHome', homeWith({ balance: 300, cards: [virtualCard, physicalCard] })), { type: 'user.continue' }]),
];

type Answer = { output?: { reason?: string; pendingCard?: Card | null } };
/** A cardPending refusal, then the cards read again with the new card on its way (replaced on another tab meanwhile). */
const refusedThenReadsNewCard = (path: (typeof runs)[number]['paths'][number]) =>
  path.steps.some((step, index) => {
    const read = path.steps[index + 1];
    const reread = (read?.event as Answer | undefined)?.output?.pendingCard;
    return (step.event as Answer).output?.reason === 'cardPending' && reread?.id === newCard.id && read!.state.hasTag('alreadyOrdered');
  });
// Its own paths: a cover takes one read for the transition, and the read without the card is as good to it.
const replacedMeanwhile = generateListedPaths(replacementMachine, [
  userLoaded,
  done('getHome', withCard),
  { type: 'user.continue' },
  listed({ type: 'user.confirm', idempotencyKey: 'key-from-the-app' }),
  cardPendingRefusal,
  done('getHome', replacedElsewhere),
])
  .paths.filter(refusedThenReadsNewCard)
  // The same steps twice (a simple path, and a shorter one extended by its last step): replayed once.
  .filter((path, index, all) => all.findIndex((other) => describePath(other) === describePath(path)) === index);

type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  keyToReuse: string | null;
  keysUsed: Set<string>;
  /** The balance and refusal the card API answered last: what the review and confirmation say. */
  money: MoneyAnswered;
  /** The error modal was closed over the screen: the browser gives the focus back then, jsdom's dialog does not. */
  modalClosed: boolean;
  /** The replacement was refused as a new card already on its way (cardPending): said on the screen that says so. */
  refusedCardPending: boolean;
  /** The new card on its way in the cards the card API answered last (null when none, or none read). */
  onItsWay: Card | null;
};

const entry = `/replacement-card?cardId=${physicalCard.id}`;
/** The order day as the card API counts it: today in US Eastern time. */
const today = () => usCalendarDay(new Date());
const short = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const ifOrderedToday = () => {
  const window = cardDeliveryWindow(today());
  return `It arrives in 10 to 15 business days: if you order today, between ${short(window.earliest)} and ${short(window.latest)}.`;
};
const stepText = () => document.querySelector('.step-indicator-text')?.textContent ?? null;
const lastRequestTo = (ctx: Ctx, path: string) => ctx.cardApi.requests.filter((request) => request.path === path).at(-1)!;

async function expectAtStep(ctx: Ctx, step: string) {
  // Step 1 is also the address without a step (spec §2: the step defaults to 1).
  const addresses = step === '1' ? ['/replacement-card', '/replacement-card/1'] : [`/replacement-card/${step}`];
  await waitFor(() => expect(addresses).toContain(ctx.router.state.location.pathname));
  // The query is passed on from step to step.
  expect(ctx.router.state.location.search).toEqual({ cardId: physicalCard.id });
}

describe('replacement chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(replacementMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  expect(replacedMeanwhile.length).toBeGreaterThan(0);
  const paths = [...runs.flatMap((run) => minimalCover(replacementMachine, run)), ...replacedMeanwhile];

  it.each(paths.map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => ({
          ...(await renderApp(entry, active)),
          keyToReuse: null,
          keysUsed: new Set<string>(),
          money: noMoneyAnswer,
          modalClosed: false,
          refusedCardPending: false,
          onItsWay: null,
        }),
        events: {
          'xstate.done.actor.getUser': async ({ cardApi }, event) => answerCall(cardApi, userPath, event),
          'xstate.error.actor.getUser': async ({ cardApi, user }, event) => {
            await answerCall(cardApi, userPath, event);
            await closeErrorModal(user);
          },
          'xstate.done.actor.getHome': async (ctx, event) => {
            await answerCall(ctx.cardApi, homePath, event);
            const home = event.output as HomeAnswer;
            ctx.money = afterHome(home);
            ctx.onItsWay = home.pendingCard;
          },
          'xstate.error.actor.getHome': async (ctx, event) => {
            await answerCall(ctx.cardApi, homePath, event);
            await closeErrorModal(ctx.user);
            ctx.modalClosed = true;
          },
          'xstate.done.actor.replaceCard': async (ctx, event) => {
            const key = idempotencyKeyOf(lastRequestTo(ctx, replacePath))!;
            await answerCall(ctx.cardApi, replacePath, event);
            ctx.money = afterMoneyAnswer(ctx.money, event.output as Parameters<typeof afterMoneyAnswer>[1]);
            ctx.refusedCardPending = ctx.money.refusal === 'cardPending';
            // The server's own failure (500 {5}) may have charged: the retry sends the same key.
            if ((event.output as { statusCode: number }).statusCode === 5) ctx.keyToReuse = key;
            else {
              ctx.keyToReuse = null;
              ctx.keysUsed.add(key);
            }
          },
          'xstate.error.actor.replaceCard': async (ctx, event) => {
            const key = idempotencyKeyOf(lastRequestTo(ctx, replacePath))!;
            await answerCall(ctx.cardApi, replacePath, event);
            await closeErrorModal(ctx.user);
            ctx.keyToReuse = key;
          },
          'user.retry': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Try again' })),
          // After the balance could not be checked, Try again stands for Continue (and reads it again).
          'user.continue': async ({ user }) =>
            user.click(screen.queryByRole('button', { name: 'Try again' }) ?? (await screen.findByRole('button', { name: 'Continue' }))),
          'user.back': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Back' })),
          'user.confirm': async ({ user }) =>
            user.click(screen.queryByRole('button', { name: 'Try again' }) ?? (await screen.findByRole('button', { name: 'Replace my card for $5.00' }))),
          // The browser's Back from step 2.
          'user.goToStep': async ({ router }) => router.history.back(),
        },
        states: [
          {
            when: (s) => s.matches('loadingUser'),
            then: async ({ cardApi }) => {
              expect(await screen.findByRole('status', { name: 'Loading your account' })).toBeTruthy();
              // Spec §2: the user first; home data only once the user has loaded.
              await waitFor(() => expect(cardApi.isWaiting(userPath)).toBe(true));
              expect(cardApi.isWaiting(homePath)).toBe(false);
            },
          },
          {
            when: (s) => s.matches('loadingCards'),
            then: async ({ cardApi }) => {
              expect(await screen.findByRole('status', { name: 'Loading your account' })).toBeTruthy();
              await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
            },
          },
          {
            when: (s) => s.hasTag('loadFailed'),
            then: async (ctx) => {
              ctx.modalClosed = false;
              expect(await screen.findByText("We couldn't load your account. Please try again.")).toBeTruthy();
              // A way out besides Try again.
              expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/home');
            },
          },
          {
            when: (s) => s.hasTag('alreadyOrdered'),
            then: async (ctx) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'A new card is already on its way' });
              await expectTabTitle('A new card is already on its way');
              // Arriving from the confirmation (refused), the heading takes the focus as the other result screens'.
              if (ctx.refusedCardPending && !ctx.modalClosed) await waitFor(() => expect(document.activeElement).toBe(heading));
              ctx.modalClosed = false;
              // The card on its way as the card API answered it last: its arrival, and whether its fee was taken
              // (for one who comes back after the order's answer was lost). When the cards read again after a
              // refusal have it no more, or got no answer, neither is said: never a fee not known.
              const { onItsWay } = ctx;
              expect(screen.queryByText(/It should arrive between Dec 8, 2026 and Dec 15, 2026\./) !== null).toBe(onItsWay !== null);
              expectFeeTakenLine(onItsWay);
              expect(stepText()).toBeNull();
              // Nothing to pay here: no pay button, nothing sent again.
              expect(screen.queryByRole('button', { name: /Replace my card|Try again|Ordering/ })).toBeNull();
              expect(ctx.cardApi.isWaiting(replacePath)).toBe(false);
              expectNothingOrderedSaid(ctx.cardApi.requests.filter((request) => request.path === replacePath).length, ctx.refusedCardPending);
              expect(screen.getByRole('link', { name: 'Manage cards' }).getAttribute('href')).toBe('/manage-cards');
            },
          },
          {
            when: (s) => s.hasTag('nothingToReplace'),
            then: async () => {
              expect(await screen.findByRole('heading', { level: 1, name: 'No card to replace' })).toBeTruthy();
              await expectTabTitle('No card to replace');
              expect(screen.getByRole('link', { name: 'Order a physical card' }).getAttribute('href')).toBe('/order-card');
            },
          },
          {
            when: (s) => s.hasTag('review'),
            then: async (ctx, s) => {
              // The loading screen has the same heading: the review is there once its text is.
              await screen.findByText("We'll mail a new Providers Card to:");
              const heading = screen.getByRole('heading', { level: 1, name: 'Replace a damaged card' });
              // The balance that could not be read again has Try again in Continue's place.
              const unchecked = s.hasTag('balanceUnchecked');
              const proceed = screen.getByRole('button', { name: s.hasTag('busy') ? 'Checking your balance…' : unchecked ? 'Try again' : 'Continue' });
              expect(screen.queryAllByRole('button', { name: /^(Continue|Try again|Checking your balance…)$/ })).toEqual([proceed]);
              if (!unchecked) expect(proceed.getAttribute('aria-disabled')).toBe(String(s.hasTag('busy')));
              if (!ctx.modalClosed) await waitFor(() => expect([heading, proceed]).toContain(document.activeElement));
              ctx.modalClosed = false;
              await expectAtStep(ctx, '1');
              expect(stepText()).toBe('Step 1 of 3');
              expect([...document.querySelectorAll('.card-address span')].map((line) => line.textContent)).toEqual([
                '1420 Fulton St',
                'Apt 3',
                'Fresno, CA 93721',
              ]);
              expect(screen.getByText(ifOrderedToday())).toBeTruthy();
              expect(screen.getByText('Your card ending in 7390 keeps working until the new one ships. Then it stops, so keep an eye out for the new one.')).toBeTruthy();
              // The balance loaded, or the one the server's refusal or a reading again answered.
              const { balanceCents } = ctx.money;
              const balance = ({ 120: ['$1.20', '$3.80'], 300: ['$3.00', '$2.00'], 2350: ['$23.50', '$18.50'] } as Record<number, string[]>)[balanceCents!]!;
              expect(moneyLines()).toEqual(
                unchecked
                  ? // Not read again: no balance is said as the balance now, nor what it lacks.
                    [['Replacement fee', '$5.00']]
                  : [
                      ['Replacement fee', '$5.00'],
                      ['Your balance now', balance[0]],
                      // Short of the fee, what is missing, not a balance below zero.
                      [balanceCents! < 500 ? 'Amount still needed' : 'Your balance after', balance[1]],
                    ],
              );
              // The balance read again got no usable answer (a gateway's page, online): not known, so never
              // said to be short; the connection is not blamed, as a server answered.
              await waitFor(() =>
                expect(alertText()).toBe(
                  s.hasTag('insufficientFunds')
                    ? "Not enough money in your accountYour balance doesn't cover the $5.00 fee, so nothing was charged. Add money to your account, then try again.Add money"
                    : unchecked
                      ? "We couldn't check your balance, so nothing was charged. Please try again.Try again"
                      : '',
                ),
              );
            },
          },
          {
            when: (s) => s.hasTag('confirm') && !s.hasTag('busy'),
            then: async (ctx, s) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'Confirm your replacement' });
              const pay = screen.getByRole('button', { name: s.hasTag('failed') ? 'Try again' : 'Replace my card for $5.00' });
              if (!s.hasTag('failed')) await waitFor(() => expect([heading, pay]).toContain(document.activeElement));
              await expectAtStep(ctx, '2');
              expect(stepText()).toBe('Step 2 of 3');
              expect(screen.getByText("We'll take $5.00 from your balance and mail you a new card. Your card ending in 7390 keeps working until the new one ships.")).toBeTruthy();
              // A new card already on its way (cardPending) is said on its own screen, never here.
              const refusals: Record<string, string> = {
                notAllowed: "This card can't be replaced here. If it was lost or stolen, report it on Manage cards. Nothing was charged.",
              };
              // A failure without a statusCode here is a gateway's page while online: a server answered, so
              // the connection is not blamed (no answer at all: tests/unit/moneyConfirmationStep.test.tsx).
              const expected = s.hasTag('failed')
                ? "There was an unexpected error. Please try again: if your first try went through, you won't be charged twice."
                : s.hasTag('refused')
                  ? (refusals[ctx.money.refusal ?? ''] ?? 'There was an unexpected error. Please try again.')
                  : '';
              await waitFor(() => expect(alertText()).toBe(expected));
              expect(pay.getAttribute('aria-disabled')).toBe('false');
            },
          },
          {
            // Refused as a new card already on its way: the cards read again, the button busy meanwhile.
            when: (s) => s.matches('cardPendingRefused'),
            then: async (ctx) => {
              const busy = await screen.findByRole('button', { name: 'Ordering your new card…' });
              expect(busy.getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
              expect(ctx.cardApi.isWaiting(replacePath)).toBe(false);
              const sent = ctx.cardApi.requests.length;
              fireEvent.click(busy);
              expect(ctx.cardApi.requests.length).toBe(sent);
              expect(screen.queryByRole('button', { name: 'Replace my card for $5.00' })).toBeNull();
            },
          },
          {
            when: (s) => s.hasTag('confirm') && s.hasTag('busy'),
            then: async (ctx) => {
              const busy = await screen.findByRole('button', { name: 'Ordering your new card…' });
              expect(busy.getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(ctx.cardApi.isWaiting(replacePath)).toBe(true));
              const sent = ctx.cardApi.requests.length;
              fireEvent.click(busy);
              expect(ctx.cardApi.requests.length).toBe(sent);
              const request = lastRequestTo(ctx, replacePath);
              expect(request.init?.method).toBe('POST');
              // The card the query named.
              expect(JSON.parse(String(request.init?.body))).toEqual({ id: physicalCard.id });
              const key = idempotencyKeyOf(request);
              expect(key).toMatch(/^[0-9a-f-]{36}$/);
              if (ctx.keyToReuse) expect(key).toBe(ctx.keyToReuse);
              else expect(ctx.keysUsed.has(key!)).toBe(false);
            },
          },
          {
            when: (s) => s.hasTag('receipt'),
            then: async (ctx) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'Your new card is on its way' });
              await expectTabTitle('Your new card is on its way');
              await waitFor(() => expect(document.activeElement).toBe(heading));
              await expectAtStep(ctx, '3');
              expect(stepText()).toBe('Step 3 of 3');
              expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe('We took $5.00 from your balance and ordered your new Providers Card.');
              expect(moneyLines()).toEqual([
                ['Replacement fee paid', '$5.00'],
                ['Your balance now', '$218.50'],
              ]);
              expect(screen.getByText('It should arrive between Dec 8, 2026 and Dec 15, 2026.')).toBeTruthy();
              expect(
                screen.getByText(
                  'Your card ending in 7390 keeps working until the new one ships, then it stops. When the new card arrives, activate it with the last 4 digits and the expiration date printed on it.',
                ),
              ).toBeTruthy();
            },
          },
        ],
      });
    },
    30_000,
  );
});
