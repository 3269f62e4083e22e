/**
 * Generated path tests over the order-card chart (with its money confirmation), replayed against the
 * real app and router: what the cardholder sees at each step, the URL's step, and what is sent (one
 * Idempotency-Key per attempt, the same one on a retry after no answer).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { cardDeliveryWindow, usCalendarDay } from '../../contract/shared/businessDays.ts';
import { orderCardMachine } from '../../machines/cards/orderCard.ts';
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

const orderPath = '/api/v1/order-card';
const listed = (event: EventObject & Record<string, unknown>): EventObject => event;
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('no statusCode') });
const userLoaded = done('getUser', { statusCode: 0, user });

const funded = homeWith({ balance: 2350, hasFundedAnyKind: true });
const neverFunded = homeWith({ balance: 0, hasFundedAnyKind: false });
const ordered: Card = { ...cardOnItsWay, id: '3b0f8d8e-1c7a-4a53-9d55-5d6a3f0e0009' };
const shipped: Card = { ...cardOnItsWay, delivery: { ...cardOnItsWay.delivery!, shippedOn: '2026-11-25' } };
const cardPendingRefusal = done('orderCard', { statusCode: 3, reason: 'cardPending' });
/** Ordered on another tab or device while this one was on the confirmation ($5.00 taken there). */
const orderedElsewhere = homeWith({ balance: 1850, hasFundedAnyKind: true, cards: [virtualCard, ordered] });
/** A card ordered earlier activated on another tab or device while this one was on the confirmation. */
const activatedElsewhere = homeWith({ balance: 2350, hasFundedAnyKind: true, cards: [virtualCard, physicalCard] });

const paymentEvents = [
  { type: 'user.continue' },
  { type: 'user.back' },
  listed({ type: 'user.confirm', idempotencyKey: 'key-from-the-app' }),
  listed({ type: 'user.goToStep', step: 2 }),
  // Paid, and a deposit came meanwhile: the receipt shows the balance the server answers ($23.50 loaded, less $5.00, plus $200.00).
    done('orderCard', { statusCode: 0, card: ordered, feeCents: 500, balanceCents: 21850 }),
  // Refused short of money: money went since the flow loaded, and the server says the balance now.
  done('orderCard', { statusCode: 3, reason: 'insufficientFunds', balanceCents: 120 }),
  // Refused for the account's cards: a card already on its way, or one in use (activated elsewhere).
  // Home data read again (with that card, with the other, with neither, or with no answer), then said.
  cardPendingRefusal,
  done('orderCard', { statusCode: 3, reason: 'notAllowed' }),
  // Another refusal: said on the confirmation.
  done('orderCard', { statusCode: 3, reason: 'idempotencyKeyReused' }),
  done('orderCard', { statusCode: 5 }),
  failed('orderCard'),
];

/** Each run: the address opened, and the chart's events. */
const runs = [
  {
    name: 'funded',
    entry: '/order-card',
    run: generateListedPaths(orderCardMachine, [
      done('getHome', funded),
      failed('getHome'),
      userLoaded,
      failed('getUser'),
      { type: 'user.retry' },
      ...paymentEvents,
      done('getHome', orderedElsewhere),
      done('getHome', activatedElsewhere),
    ]),
  },
  {
    name: 'never funded',
    entry: '/order-card/1',
    run: generateListedPaths(orderCardMachine, [
      done('getHome', neverFunded),
      userLoaded,
      { type: 'user.continue' },
      listed({ type: 'user.goToStep', step: 1 }),
      listed({ type: 'user.goToStep', step: 2 }),
    ]),
  },
  {
    name: 'a card already',
    entry: '/order-card',
    run: generateListedPaths(orderCardMachine, [
      done('getHome', homeWith({ cards: [virtualCard, shipped] })),
      done('getHome', homeWith({ cards: [virtualCard, physicalCard] })),
    ]),
  },
];

type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  /** The key of an attempt that got no answer: the retry must send it again. */
  keyToReuse: string | null;
  keysUsed: Set<string>;
  /** Whether the home data the chart loaded first says the account was ever funded (it skips step 1). */
  fundedAccount: boolean | null;
  /** The balance and refusal the card API answered last: what the review and confirmation say. */
  money: MoneyAnswered;
  /** The error modal was closed over the screen: the browser gives the focus back then, jsdom's dialog does not. */
  modalClosed: boolean;
  /** The order was refused for the account's cards (cardPending, notAllowed): said on the screen that says why. */
  refusedForCards: boolean;
  /** The card on its way in the home data the card API answered last (null when none, or none read). */
  onItsWay: Card | null;
};

type Answer = { output?: { reason?: string; pendingCard?: Card | null } };
/** A cardPending refusal, then home data read again with the card ordered elsewhere on its way. */
const refusedThenReadsOrdered = (path: (typeof runs)[number]['run']['paths'][number]) =>
  path.steps.some((step, index) => {
    const read = path.steps[index + 1];
    const reread = (read?.event as Answer | undefined)?.output?.pendingCard;
    return (step.event as Answer).output?.reason === 'cardPending' && reread?.id === ordered.id && read!.state.hasTag('alreadyOrdered');
  });
// Its own paths: a cover takes one read for the transition, and the read without the card is as good to it.
const orderedMeanwhile = generateListedPaths(orderCardMachine, [
  done('getHome', funded),
  userLoaded,
  { type: 'user.continue' },
  listed({ type: 'user.confirm', idempotencyKey: 'key-from-the-app' }),
  cardPendingRefusal,
  done('getHome', orderedElsewhere),
])
  .paths.filter(refusedThenReadsOrdered)
  // The same steps twice (a simple path, and a shorter one extended by its last step): replayed once.
  .filter((path, index, all) => all.findIndex((other) => describePath(other) === describePath(path)) === index);

/** The order day as the card API counts it: today in US Eastern time. */
const today = () => usCalendarDay(new Date());
const short = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const ifOrderedToday = () => {
  const window = cardDeliveryWindow(today());
  return `It arrives in 10 to 15 business days: if you order today, between ${short(window.earliest)} and ${short(window.latest)}.`;
};

async function expectAt(ctx: Ctx, pathname: string) {
  await waitFor(() => expect(ctx.router.state.location.pathname).toBe(pathname));
}
const stepText = () => document.querySelector('.step-indicator-text')?.textContent ?? null;

describe('order-card chart', () => {
  it('offers the activation of a shipped replacement as a replacement', async () => {
    const app = await renderApp('/order-card', active);
    await answerCall(app.cardApi, homePath, { type: 'xstate.done', output: homeWith({ cards: [virtualCard, { ...shipped, replacesCardId: physicalCard.id }] }) });
    expect((await screen.findByRole('link', { name: 'Activate your card' })).getAttribute('href')).toBe('/activate/1?isReplacement=%22true%22');
  });

  it('a balance read again with no answer is said as not checked (never short), and a charge blames the connection only when no answer came', async () => {
    const app = await renderApp('/order-card', active);
    await answerCall(app.cardApi, homePath, { type: 'xstate.done', output: funded });
    await answerCall(app.cardApi, userPath, userLoaded);
    await app.user.click(await screen.findByRole('button', { name: 'Continue' }));
    await app.user.click(await screen.findByRole('button', { name: 'Order my card for $5.00' }));
    // Refused short of money ($1.20 now): said so, as the server knows the balance.
    await answerCall(app.cardApi, orderPath, { type: 'xstate.done', output: { statusCode: 3, reason: 'insufficientFunds', balanceCents: 120 } });
    await screen.findByText('Not enough money in your account');

    // Continue reads the balance again, and the phone's connection drops: no answer at all.
    await app.user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.drop(homePath);
    await closeErrorModal(app.user);
    await waitFor(() =>
      expect(alertText()).toBe("We couldn't check your balance, so nothing was charged. Check your connection and try again.Try again"),
    );
    expect(screen.queryByText('Not enough money in your account')).toBeNull();
    // The balance last known is not said as the balance now, nor what it lacks.
    expect(moneyLines()).toEqual([['Card fee', '$5.00']]);
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();

    // Try again reads it again: money came meanwhile, so on to the confirmation.
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    await answerCall(app.cardApi, homePath, { type: 'xstate.done', output: funded });
    await screen.findByRole('heading', { level: 1, name: 'Confirm your order' });

    // The order gets no answer: the connection is the likely cause.
    await app.user.click(screen.getByRole('button', { name: 'Order my card for $5.00' }));
    await waitFor(() => expect(app.cardApi.isWaiting(orderPath)).toBe(true));
    app.cardApi.drop(orderPath);
    await closeErrorModal(app.user);
    await waitFor(() =>
      expect(alertText()).toBe(
        "We couldn't reach Providers to finish this. Check your connection and try again: if your first try went through, you won't be charged twice.",
      ),
    );
    // The retry gets a gateway's page while online: a server answered, so the connection is not blamed.
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    await answerCall(app.cardApi, orderPath, { type: 'xstate.error' });
    await closeErrorModal(app.user);
    await waitFor(() =>
      expect(alertText()).toBe("There was an unexpected error. Please try again: if your first try went through, you won't be charged twice."),
    );
  });

  it('generated paths reach every state and transition', () => {
    expect(coverageOf(orderCardMachine, runs.map(({ run }) => run))).toEqual({ missingStates: [], missingTransitions: [] });
  });

  // No answer, then the retry: it must carry the first attempt's Idempotency-Key (the server answers the
  // first result instead of charging again), and a new order after that a new one: the paths that send two
  // orders (counted as such: busy steps count the loading too, and a cardPending refusal's read).
  const retried = generateListedPaths(orderCardMachine, [
    done('getHome', funded),
    userLoaded,
    { type: 'user.continue' },
    listed({ type: 'user.confirm', idempotencyKey: 'key-from-the-app' }),
    failed('orderCard'),
    done('orderCard', { statusCode: 3, reason: 'idempotencyKeyReused' }),
  ]).paths.filter((path) => path.steps.filter((step) => step.state.matches({ payment: 'submitting' })).length === 2);
  expect(retried.length).toBeGreaterThan(0);
  expect(orderedMeanwhile.length).toBeGreaterThan(0);

  const cases = [
    ...runs.flatMap(({ name, entry, run }) =>
      minimalCover(orderCardMachine, run).map((path) => [`${name}: ${describePath(path)}`, path, entry] as const),
    ),
    ...retried.map((path) => [`retried: ${describePath(path)}`, path, '/order-card'] as const),
    ...orderedMeanwhile.map((path) => [`ordered meanwhile: ${describePath(path)}`, path, '/order-card'] as const),
  ];

  it.each(cases)(
    'path %s',
    async (_name, path, entry) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          const app = await renderApp(entry, active);
          return {
            ...app,
            keyToReuse: null,
            keysUsed: new Set<string>(),
            fundedAccount: null,
            money: noMoneyAnswer,
            modalClosed: false,
            refusedForCards: false,
            onItsWay: null,
          };
        },
        events: {
          'xstate.done.actor.getHome': async (ctx, event) => {
            const home = event.output as HomeAnswer;
            await answerCall(ctx.cardApi, homePath, event);
            // Read again before paying, it says the balance now; the steps stay as the first load had them.
            ctx.fundedAccount ??= home.hasFundedAnyKind;
            ctx.money = afterHome(home);
            ctx.onItsWay = home.pendingCard;
          },
          'xstate.error.actor.getHome': async (ctx, event) => {
            await answerCall(ctx.cardApi, homePath, event);
            await closeErrorModal(ctx.user);
            ctx.modalClosed = true;
          },
          'xstate.done.actor.getUser': async (ctx, event) => answerCall(ctx.cardApi, userPath, event),
          'xstate.error.actor.getUser': async (ctx, event) => {
            await answerCall(ctx.cardApi, userPath, event);
            await closeErrorModal(ctx.user);
          },
          'xstate.done.actor.orderCard': async (ctx, event) => {
            const key = idempotencyKeyOf(ctx.cardApi.requests.filter((request) => request.path === orderPath).at(-1)!)!;
            await answerCall(ctx.cardApi, orderPath, event);
            ctx.money = afterMoneyAnswer(ctx.money, event.output as Parameters<typeof afterMoneyAnswer>[1]);
            ctx.refusedForCards = ctx.money.refusal === 'cardPending' || ctx.money.refusal === 'notAllowed';
            // A definite answer ends the attempt: the next confirmation brings a new key.
            // The server's own failure (500 {5}) may have charged: the retry sends the same key.
            if ((event.output as { statusCode: number }).statusCode === 5) ctx.keyToReuse = key;
            else {
              ctx.keyToReuse = null;
              ctx.keysUsed.add(key);
            }
          },
          'xstate.error.actor.orderCard': async (ctx, event) => {
            const key = idempotencyKeyOf(ctx.cardApi.requests.filter((request) => request.path === orderPath).at(-1)!)!;
            await answerCall(ctx.cardApi, orderPath, event);
            await closeErrorModal(ctx.user);
            ctx.keyToReuse = key;
          },
          'user.retry': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Try again' })),
          // After the balance could not be checked, Try again stands for Continue (and reads it again).
          'user.continue': async ({ user }) =>
            user.click(screen.queryByRole('button', { name: 'Try again' }) ?? (await screen.findByRole('button', { name: 'Continue' }))),
          'user.back': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Back' })),
          'user.confirm': async ({ user }) => {
            const button = screen.queryByRole('button', { name: 'Try again' }) ?? (await screen.findByRole('button', { name: 'Order my card for $5.00' }));
            await user.click(button);
          },
          // The address bar's step: typed, or the browser's Back.
          'user.goToStep': async (ctx, event) => {
            await ctx.router.navigate({ to: '/order-card/{-$step}', params: { step: String(event.step) } });
          },
        },
        states: [
          {
            when: (s) => s.hasTag('loading'),
            then: async ({ cardApi }, s) => {
              expect(await screen.findByRole('status', { name: 'Loading your account' })).toBeTruthy();
              // Home data, then (a card can be ordered) where it would be mailed.
              await waitFor(() => expect(cardApi.isWaiting(s.matches('loadingAddress') ? userPath : homePath)).toBe(true));
            },
          },
          {
            when: (s) => s.hasTag('loadFailed'),
            then: async (ctx) => {
              ctx.modalClosed = false;
              expect(await screen.findByText("We couldn't load your account. Please try again.")).toBeTruthy();
              expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
              // A way out besides Try again.
              expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/home');
              expect(screen.getByRole('link', { name: 'Manage cards' }).getAttribute('href')).toBe('/manage-cards');
            },
          },
          {
            when: (s) => s.hasTag('alreadyOrdered'),
            then: async (ctx) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'Your card is already on its way' });
              await expectTabTitle('Your card is already on its way');
              // Arriving from the confirmation (refused), the heading takes the focus as the other result screens'.
              if (ctx.refusedForCards && !ctx.modalClosed) await waitFor(() => expect(document.activeElement).toBe(heading));
              ctx.modalClosed = false;
              // The card on its way as the card API answered it last: its arrival, the fee taken for it, and its
              // activation once shipped. When home data read again after a refusal has it no more, or got no
              // answer, none of these is said: never a fee not known.
              const { onItsWay } = ctx;
              const shippedOn = onItsWay?.delivery?.shippedOn ?? null;
              expect(screen.queryByText(/It should arrive between Dec 8, 2026 and Dec 15, 2026\./) !== null).toBe(onItsWay !== null);
              expectFeeTakenLine(onItsWay);
              expect(screen.queryByText(/^It shipped on/)?.textContent ?? null).toBe(
                shippedOn ? "It shipped on Nov 25, 2026. Once it's in your hands, activate it to start using it." : null,
              );
              expect(screen.queryByRole('link', { name: 'Activate your card' })?.getAttribute('href') ?? null).toBe(shippedOn ? '/activate/1' : null);
              expect(stepText()).toBeNull();
              // Nothing to pay here: no order button, nothing sent again.
              expect(screen.queryByRole('button', { name: /Order my card|Try again|Ordering/ })).toBeNull();
              expect(ctx.cardApi.isWaiting(orderPath)).toBe(false);
              expectNothingOrderedSaid(ctx.cardApi.requests.filter((request) => request.path === orderPath).length, ctx.refusedForCards);
              expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/home');
            },
          },
          {
            when: (s) => s.hasTag('alreadyHaveCard'),
            then: async (ctx) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'You already have a Providers Card' });
              await expectTabTitle('You already have a Providers Card');
              if (ctx.refusedForCards && !ctx.modalClosed) await waitFor(() => expect(document.activeElement).toBe(heading));
              ctx.modalClosed = false;
              // Refused as a card in use (activated elsewhere): nothing ordered or charged, and said so; no order button.
              expectNothingOrderedSaid(ctx.cardApi.requests.filter((request) => request.path === orderPath).length, ctx.refusedForCards);
              expect(screen.queryByRole('button', { name: /Order my card|Try again|Ordering/ })).toBeNull();
              expect(screen.getByRole('link', { name: 'Replace a damaged card' }).getAttribute('href')).toBe('/replacement-card');
              expect(screen.getByRole('link', { name: 'Manage cards' }).getAttribute('href')).toBe('/manage-cards');
            },
          },
          {
            when: (s) => s.hasTag('intro'),
            then: async (ctx) => {
              // The loading screen has the same heading: step 1 is there once its text is.
              await screen.findByText(/Sending it costs \$5\.00/);
              const heading = screen.getByRole('heading', { level: 1, name: 'Order your Providers Card' });
              await waitFor(() => expect(document.activeElement).toBe(heading));
              await expectAt(ctx, '/order-card/1');
              expect(stepText()).toBe('Step 1 of 4');
              expect(screen.getByText(/Sending it costs \$5\.00, taken from your balance\./).textContent).toContain(ifOrderedToday());
              expect(screen.getByText('Your balance is $0.00. Add at least $5.00 to your account before you order.')).toBeTruthy();
              expect(screen.getByRole('link', { name: 'Add money' }).getAttribute('href')).toBe('/add-money');
            },
          },
          {
            when: (s) => s.hasTag('review'),
            then: async (ctx, s) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'Review your card order' });
              // Arriving, the heading takes focus; when Continue finds too little money, focus stays on it,
              // unavailable while the balance is read again. The balance that could not be read again has
              // Try again in its place.
              const unchecked = s.hasTag('balanceUnchecked');
              const proceed = screen.getByRole('button', { name: s.hasTag('busy') ? 'Checking your balance…' : unchecked ? 'Try again' : 'Continue' });
              expect(screen.queryAllByRole('button', { name: /^(Continue|Try again|Checking your balance…)$/ })).toEqual([proceed]);
              if (!unchecked) expect(proceed.getAttribute('aria-disabled')).toBe(String(s.hasTag('busy')));
              if (!ctx.modalClosed) await waitFor(() => expect([heading, proceed]).toContain(document.activeElement));
              ctx.modalClosed = false;
              await expectAt(ctx, '/order-card/2');
              expect(stepText()).toBe(ctx.fundedAccount ? 'Step 1 of 3' : 'Step 2 of 4');
              // Where the card goes, before the fee is taken.
              expect(screen.getByText("We'll mail your Providers Card to:")).toBeTruthy();
              expect(document.querySelector('address.card-address')?.textContent).toBe('1420 Fulton StApt 3Fresno, CA 93721');
              expect(screen.getByText(ifOrderedToday())).toBeTruthy();
              // The balance loaded, or the one the server's refusal or a reading again answered.
              const { balanceCents } = ctx.money;
              const balance = ({ 120: ['$1.20', '$3.80'], 2350: ['$23.50', '$18.50'], 0: ['$0.00', '$5.00'] } as Record<number, string[]>)[balanceCents!]!;
              expect(moneyLines()).toEqual(
                unchecked
                  ? // Not read again: no balance is said as the balance now, nor what it lacks.
                    [['Card fee', '$5.00']]
                  : [
                      ['Card fee', '$5.00'],
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
              const heading = await screen.findByRole('heading', { level: 1, name: 'Confirm your order' });
              const pay = screen.getByRole('button', { name: s.hasTag('failed') ? 'Try again' : 'Order my card for $5.00' });
              // Arriving, the heading takes focus; back from ordering, it stays on the button pressed (after no
              // answer the browser gives it back as the error modal closes, which jsdom's dialog does not do).
              if (!s.hasTag('failed')) await waitFor(() => expect([heading, pay]).toContain(document.activeElement));
              await expectAt(ctx, '/order-card/3');
              expect(stepText()).toBe('Step 2 of 3');
              expect(screen.getByText("We'll take $5.00 from your balance and mail your card.")).toBeTruthy();
              // A failure without a statusCode here is a gateway's page while online: a server answered, so
              // the connection is not blamed (no answer at all: tests/unit/moneyConfirmationStep.test.tsx).
              const expected = s.hasTag('failed')
                ? "There was an unexpected error. Please try again: if your first try went through, you won't be charged twice."
                : s.hasTag('refused')
                  ? // A card already on its way (cardPending) is said on its own screen, never here.
                    'There was an unexpected error. Please try again.'
                  : '';
              await waitFor(() => expect(alertText()).toBe(expected));
              expect(pay.getAttribute('aria-disabled')).toBe('false');
            },
          },
          {
            // Refused for the account's cards: home data read again, the button busy meanwhile.
            when: (s) => s.matches('cardRefused'),
            then: async (ctx) => {
              const busy = await screen.findByRole('button', { name: 'Ordering your card…' });
              expect(busy.getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
              expect(ctx.cardApi.isWaiting(orderPath)).toBe(false);
              const sent = ctx.cardApi.requests.length;
              fireEvent.click(busy);
              expect(ctx.cardApi.requests.length).toBe(sent);
              expect(screen.queryByRole('button', { name: 'Order my card for $5.00' })).toBeNull();
            },
          },
          {
            when: (s) => s.hasTag('confirm') && s.hasTag('busy'),
            then: async (ctx) => {
              // Unavailable, not disabled: the keyboard's focus stays on it through the call, and a press sends nothing more.
              const busy = await screen.findByRole('button', { name: 'Ordering your card…' });
              expect(busy.getAttribute('aria-disabled')).toBe('true');
              expect(screen.getByRole('button', { name: 'Back' }).getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(ctx.cardApi.isWaiting(orderPath)).toBe(true));
              const sent = ctx.cardApi.requests.length;
              fireEvent.click(busy);
              fireEvent.click(screen.getByRole('button', { name: 'Back' }));
              expect(ctx.cardApi.requests.length).toBe(sent);
              expect(screen.getByRole('button', { name: 'Ordering your card…' })).toBe(busy);
              const request = ctx.cardApi.requests.filter((candidate) => candidate.path === orderPath).at(-1)!;
              expect(request.init?.method).toBe('POST');
              expect(JSON.parse(String(request.init?.body))).toEqual({});
              expect(new Headers(request.init?.headers).get('authorization')).toBe('Bearer access-1');
              const key = idempotencyKeyOf(request);
              expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
              // Once per attempt: the same key after no answer, a new one after a definite answer.
              if (ctx.keyToReuse) expect(key).toBe(ctx.keyToReuse);
              else expect(ctx.keysUsed.has(key!)).toBe(false);
            },
          },
          {
            when: (s) => s.hasTag('receipt'),
            then: async (ctx) => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'Your card is on its way' });
              await expectTabTitle('Your card is on its way');
              await waitFor(() => expect(document.activeElement).toBe(heading));
              await expectAt(ctx, '/order-card/4');
              expect(stepText()).toBe('Step 3 of 3');
              expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe('We took $5.00 from your balance and ordered your Providers Card.');
              expect(moneyLines()).toEqual([
                ['Card fee paid', '$5.00'],
                ['Your balance now', '$218.50'],
              ]);
              expect(
                screen.getByText(/It should arrive between Dec 8, 2026 and Dec 15, 2026\./).textContent,
              ).toBe('It should arrive between Dec 8, 2026 and Dec 15, 2026. When it arrives, activate it here with the last 4 digits and the expiration date printed on it.');
              expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/home');
            },
          },
        ],
      });
    },
    30_000,
  );
});

