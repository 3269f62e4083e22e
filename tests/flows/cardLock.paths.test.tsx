/**
 * Generated path tests over the card lock chart (lock and unlock on the cards screen), replayed against
 * the real app and router: the card shown is the one the server answered, and a failure is said on the
 * card, never in the generic error modal. A lock or unlock with no answer never says it failed: the
 * card API may have done it, so the card is read again and said as it is, or as not confirmed.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor as waitForState, type EventObject } from 'xstate';
import type { Card } from '../../contract/cards/types.ts';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { CardNotInStateError, cardLockMachine, replaceCardInState, type CardLockAnswer } from '../../machines/cards/cardLock.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import {
  answerCardsLoad,
  freezePath,
  homePath,
  homeWith,
  httpStatusOf,
  lastBody,
  pendingCard,
  physicalCard,
  slideOf,
  unfreezePath,
  virtualCard,
} from '../support/manageCardsFixtures.ts';
import { active, renderApp } from '../support/renderApp.tsx';

const lockedCard: Card = { ...physicalCard, frozen: true };
/** Reported stolen on another tab or device while this one showed it locked: no lock to toggle any more. */
const stolenCard: Card = { ...lockedCard, status: 'STOLEN', isActive: false };
const strangerCard: Card = { ...physicalCard, id: '0b7f5a52-1c3e-4a8e-9d27-5f0c3e1a0999', lastFour: '9999' };
const cards = [virtualCard, physicalCard];

const events = [
  { type: 'user.lock', cardId: physicalCard.id },
  { type: 'user.unlock', cardId: physicalCard.id },
  { type: 'xstate.done.actor.freezeCard', output: { statusCode: 0, card: lockedCard } },
  { type: 'xstate.done.actor.freezeCard', output: { statusCode: 3, reason: 'notAllowed' } },
  { type: 'xstate.done.actor.freezeCard', output: { statusCode: 0, card: { ...strangerCard, frozen: true } } },
  { type: 'xstate.error.actor.freezeCard', error: new Error('no statusCode') },
  { type: 'xstate.done.actor.freezeCard', output: { statusCode: 5 } },
  { type: 'xstate.done.actor.unfreezeCard', output: { statusCode: 0, card: physicalCard } },
  { type: 'xstate.done.actor.unfreezeCard', output: { statusCode: 3, reason: 'notAllowed' } },
  { type: 'xstate.done.actor.unfreezeCard', output: { statusCode: 0, card: strangerCard } },
  { type: 'xstate.error.actor.unfreezeCard', error: new Error('no statusCode') },
  { type: 'xstate.done.actor.unfreezeCard', output: { statusCode: 5 } },
  // The cards read again after no answer: the card locked, not locked, or not there.
  { type: 'xstate.done.actor.getHome', output: homeWith([virtualCard, lockedCard]) },
  { type: 'xstate.done.actor.getHome', output: homeWith(cards) },
  { type: 'xstate.done.actor.getHome', output: homeWith([virtualCard]) },
  { type: 'xstate.done.actor.getHome', output: homeWith([virtualCard, stolenCard]) },
  { type: 'xstate.error.actor.getHome', error: new Error('no statusCode') },
];
const run = generatePaths(cardLockMachine, events, { cards });
// Refused because another tab or device reported the card stolen: its own run, as a cover takes one read for the transition.
const stolenRun = generatePaths(
  cardLockMachine,
  [events[0]!, { type: 'xstate.done.actor.freezeCard', output: { statusCode: 3, reason: 'notAllowed' } }, { type: 'xstate.done.actor.getHome', output: homeWith([virtualCard, stolenCard]) }],
  { cards },
);
const paths = [run, stolenRun].flatMap((each) => minimalCover(cardLockMachine, each));

/**
 * The app, how many answers named a card not in state so far, and whether the physical card should show
 * locked: as the card API last answered it (a lock or unlock, or the cards read again), never as the
 * chart's context has it (a chart that kept the wrong card would be wrong with it).
 */
type Ctx = Awaited<ReturnType<typeof renderApp>> & { strangerAnswers: number; frozen: boolean; stolen: boolean };
const physicalName = 'Physical card ending in 5678';
// Named with its card: a list of the screen's controls tells the cards' switches apart.
const lockSwitch = () => within(slideOf(physicalName)).getByRole('switch', { name: 'Lock card ending in 5678' });
const noErrorModal = ({ session }: Ctx) => expect(session.getSnapshot().hasTag('errorModalOpen')).toBe(false);
const cardError = () => document.getElementById(`lock-error-${physicalCard.id}`)!.textContent;

function answer(path: string) {
  return async (ctx: Ctx, event: EventObject & Record<string, unknown>) => {
    const output = event.output as { statusCode: number; card?: Card } & Partial<HomeAnswer>;
    await waitFor(() => expect(ctx.cardApi.isWaiting(path)).toBe(true));
    if (output.card?.id === strangerCard.id) ctx.strangerAnswers += 1;
    ctx.cardApi.answer(path, output, httpStatusOf(output));
    // The card as answered: by the lock or unlock itself, or in the cards read again (when they have it).
    const answered = output.card ?? output.accountOverview?.cards.find((card) => card.id === physicalCard.id);
    if (answered?.id === physicalCard.id) ctx.frozen = answered.frozen;
    if (answered?.status === 'STOLEN') ctx.stolen = true;
  };
}
function fail(path: string) {
  return async ({ cardApi }: Ctx) => {
    await waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
    cardApi.fail(path);
  };
}

describe('card lock chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(cardLockMachine, [run, stolenRun])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('the replayed paths meet a refusal whose cards, read again, have the card reported stolen elsewhere', () => {
    type Answer = { output?: { statusCode?: number; accountOverview?: { cards: Card[] } } };
    const refusedThenStolen = paths.some((path) =>
      path.steps.some((step, index) => {
        const refusal = (step.event as Answer).output?.statusCode === 3;
        const read = (path.steps[index + 1]?.event as Answer | undefined)?.output?.accountOverview?.cards ?? [];
        return refusal && read.some((card) => card.status === 'STOLEN');
      }),
    );
    expect(refusedThenStolen).toBe(true);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          const app = await renderApp('/manage-cards', active);
          await answerCardsLoad(app.cardApi, homeWith(cards));
          return { ...app, strangerAnswers: 0, frozen: physicalCard.frozen, stolen: false };
        },
        events: {
          'user.lock': async ({ user }) => user.click(lockSwitch()),
          'user.unlock': async ({ user }) => user.click(lockSwitch()),
          'xstate.done.actor.freezeCard': answer(freezePath),
          'xstate.error.actor.freezeCard': fail(freezePath),
          'xstate.done.actor.unfreezeCard': answer(unfreezePath),
          'xstate.error.actor.unfreezeCard': fail(unfreezePath),
          'xstate.done.actor.getHome': answer(homePath),
          'xstate.error.actor.getHome': fail(homePath),
        },
        states: [
          {
            when: (s) => s.matches('ready'),
            then: async (ctx, s) => {
              const { frozen } = ctx;
              const slide = slideOf(physicalName);
              if (ctx.stolen) {
                // Reported stolen elsewhere: the card as it is now, no switch, and the failure said in its place, with the focus.
                await waitFor(() => expect(within(slide).queryByRole('switch')).toBeNull());
                expect(slide.querySelector('.card-status strong')?.textContent).toBe('Reported stolen.');
                const failure = s.matches({ ready: 'lockFailed' }) ? "We weren't able to lock your card." : "We weren't able to unlock your card.";
                expect(within(slide).getByRole('alert').textContent).toBe(`${failure} This card can't be locked or unlocked anymore.`);
                expect(document.activeElement).toBe(within(slide).getByRole('alert'));
                noErrorModal(ctx);
                return;
              }
              // The card shown is the one the server answered last: locked or not.
              await waitFor(() => expect(lockSwitch().getAttribute('aria-checked')).toBe(String(frozen)));
              expect(lockSwitch().getAttribute('aria-disabled')).toBe('false');
              // A status followed by its sentence ends with a period: "Locked. Purchases…", never one run-on sentence.
              // Not confirmed, the card's last known state is not said as a fact.
              const unconfirmed = s.matches({ ready: 'lockUnconfirmed' }) || s.matches({ ready: 'unlockUnconfirmed' });
              expect(within(slide).getByText(unconfirmed ? 'Status not confirmed' : frozen ? 'Locked.' : 'Active')).toBeTruthy();
              const declined = within(slide).queryByText('Purchases and ATM withdrawals are declined until you unlock it.');
              expect(declined !== null).toBe(frozen && !unconfirmed);
              // Locking one card never changes another.
              expect(within(slideOf('Virtual card ending in 4821')).getByRole('switch', { name: 'Lock card ending in 4821' }).getAttribute('aria-checked')).toBe('false');
              const said = s.matches({ ready: 'lockFailed' })
                ? "We weren't able to lock your card."
                : s.matches({ ready: 'unlockFailed' })
                  ? "We weren't able to unlock your card."
                  : s.matches({ ready: 'lockUnconfirmed' })
                    ? "We couldn't confirm that your card is locked. Lock it again to be sure."
                    : s.matches({ ready: 'unlockUnconfirmed' })
                      ? "We couldn't confirm that your card is unlocked. Unlock it again to be sure."
                      : '';
              await waitFor(() => expect(cardError()).toBe(said));
              // A lock or unlock that went through is said once, in the card's status (the switch's
              // aria-checked alone is not announced); a failure or the screen's first showing says nothing there.
              const done = s.matches({ ready: 'locked' }) ? 'Your card is locked.' : s.matches({ ready: 'unlocked' }) ? 'Your card is unlocked.' : '';
              expect(within(slide).getByRole('status').textContent).toBe(done);
              if (said) {
                expect(within(slide).getByRole('alert').textContent).toBe(said);
                expect(lockSwitch().getAttribute('aria-describedby')).toBe(`lock-error-${physicalCard.id}`);
              }
              // Spec §8: lock and unlock failures never open the generic error modal.
              noErrorModal(ctx);
              // Spec §4: an answer naming a card not in state raises (reported as an error), and changes nothing.
              const raised = ctx.reports.filter((report) => report.message === 'Card lock answered a card not in state');
              expect(raised).toEqual(Array.from({ length: ctx.strangerAnswers }, () => ({ level: 'error', message: 'Card lock answered a card not in state' })));
              expect(screen.queryByText(/9999/)).toBeNull();
            },
          },
          {
            // No answer: the cards read again (quietly) before anything is said on the card.
            when: (s) => s.matches('checkingLock') || s.matches('checkingUnlock') || s.matches('lockRefused') || s.matches('unlockRefused'),
            then: async ({ cardApi }) => {
              await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
              expect(lockSwitch().getAttribute('aria-disabled')).toBe('true');
              expect(within(slideOf(physicalName)).getByRole('status').textContent).toBe('Checking your card…');
              expect(cardError()).toBe('');
            },
          },
          {
            when: (s) => s.matches('locking') || s.matches('unlocking'),
            then: async ({ cardApi, user }, s) => {
              const locking = s.matches('locking');
              const path = locking ? freezePath : unfreezePath;
              await waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
              expect(lastBody(cardApi, path)).toEqual({ id: physicalCard.id });
              // aria-disabled, not disabled: the keyboard's focus stays on the switch (it was pressed), and a
              // second press while the call is on its way sends nothing.
              expect(lockSwitch().getAttribute('aria-disabled')).toBe('true');
              expect(document.activeElement).toBe(lockSwitch());
              const sent = cardApi.requests.length;
              await user.click(lockSwitch());
              expect(cardApi.requests.length).toBe(sent);
              expect(within(slideOf(physicalName)).getByRole('status').textContent).toBe(locking ? 'Locking your card…' : 'Unlocking your card…');
            },
          },
        ],
      });
    },
    30_000,
  );
});

describe('card lock, beside the paths', () => {
  it('raises when the card answered is not in state, and reports it from the screen', async () => {
    expect(() => replaceCardInState(cards, strangerCard)).toThrow(CardNotInStateError);
    expect(replaceCardInState(cards, lockedCard)).toEqual([virtualCard, lockedCard]);

    const app = await renderApp('/manage-cards', active);
    await answerCardsLoad(app.cardApi, homeWith(cards));
    await app.user.click(lockSwitch());
    await waitFor(() => expect(app.cardApi.isWaiting(freezePath)).toBe(true));
    app.cardApi.answer(freezePath, { statusCode: 0, card: { ...strangerCard, frozen: true } });
    await waitFor(() => expect(cardError()).toBe("We weren't able to lock your card."));
    expect(app.reports).toContainEqual({ level: 'error', message: 'Card lock answered a card not in state' });
    expect(lockSwitch().getAttribute('aria-checked')).toBe('false');
  });

  it('has no lock for a card on its way, lost or replaced', async () => {
    const lost: Card = { ...physicalCard, status: 'LOST', isActive: false };
    const actor = createActor(cardLockMachine, { input: { cards: [pendingCard, lost] } }).start();
    actor.send({ type: 'user.lock', cardId: pendingCard.id });
    actor.send({ type: 'user.unlock', cardId: lost.id });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    actor.stop();

    const app = await renderApp('/manage-cards', active);
    await answerCardsLoad(app.cardApi, homeWith([virtualCard, pendingCard]));
    const slide = slideOf('Physical card');
    expect(within(slide).queryByRole('switch')).toBeNull();
    expect(within(slide).getByText('On its way.')).toBeTruthy();
  });

  it('says a locked card being replaced is declined, not that it keeps working', async () => {
    const replaced: Card = { ...physicalCard, replacedByCardId: pendingCard.id };
    const app = await renderApp('/manage-cards', active);
    await answerCardsLoad(app.cardApi, homeWith([virtualCard, { ...replaced, frozen: true }, pendingCard]));
    const slide = slideOf(physicalName);
    expect(within(slide).getByText('Locked.')).toBeTruthy();
    expect(within(slide).getByText('Purchases and ATM withdrawals are declined until you unlock it.')).toBeTruthy();
    expect(within(slide).queryByText(/keeps working/)).toBeNull();
  });

  it('never says a lock with no answer failed: the card read again says what happened', async () => {
    const noAnswer = fromPromise<CardLockAnswer, { id: string }>(() => Promise.reject(new Error('no statusCode')));
    const locking = (home: () => Promise<HomeAnswer>) =>
      createActor(cardLockMachine.provide({ actors: { freezeCard: noAnswer, getHome: fromPromise(home) } }), { input: { cards } }).start();

    // The card API locked it and the answer was lost: the card shows locked, as home does.
    const wentThrough = locking(async () => homeWith([virtualCard, lockedCard]));
    wentThrough.send({ type: 'user.lock', cardId: physicalCard.id });
    expect((await waitForState(wentThrough, (s) => s.matches('ready') && !s.matches({ ready: 'idle' }))).value).toEqual({ ready: 'locked' });
    expect(wentThrough.getSnapshot().context.cards).toEqual([virtualCard, lockedCard]);
    wentThrough.stop();

    // Not read either (or the auth modal given up): not confirmed, the card as it was, to be locked again.
    const unread = locking(() => Promise.reject(new Error('no statusCode')));
    unread.send({ type: 'user.lock', cardId: physicalCard.id });
    expect((await waitForState(unread, (s) => s.matches('ready') && !s.matches({ ready: 'idle' }))).value).toEqual({ ready: 'lockUnconfirmed' });
    expect(unread.getSnapshot().context.cards).toEqual(cards);
    unread.send({ type: 'user.lock', cardId: physicalCard.id });
    expect(unread.getSnapshot().matches('locking')).toBe(true);
    unread.stop();
  });

  it('a lock refused because the replacement was activated elsewhere: the new card shows, and can be reported', async () => {
    const replacement: Card = { ...pendingCard, replacesCardId: physicalCard.id };
    const app = await renderApp('/manage-cards', active);
    await answerCardsLoad(app.cardApi, homeWith([virtualCard, { ...physicalCard, replacedByCardId: replacement.id }, replacement]));
    await app.user.click(lockSwitch());
    await waitFor(() => expect(app.cardApi.isWaiting(freezePath)).toBe(true));
    app.cardApi.answer(freezePath, { statusCode: 3, reason: 'notAllowed' }, 403);
    // Read again: the old card stopped by its replacement, now activated on another device.
    const activated: Card = { ...replacement, status: 'ACTIVE', isActive: true, isPending: false, lastFour: '2468', delivery: null };
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWith([virtualCard, { ...physicalCard, isActive: false, replacedByCardId: activated.id }, activated]));
    const newCard = await waitFor(() => slideOf('Replacement card ending in 2468'));
    // The report goes for the card shown, not the one the screen loaded (then still on its way).
    await app.user.click(within(newCard).getByRole('button', { name: 'Report lost or stolen' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Report a lost or stolen card' })).toBeTruthy();
  });

  it('a lock whose answer is lost shows the card locked, as the card API has it', async () => {
    const app = await renderApp('/manage-cards', active);
    await answerCardsLoad(app.cardApi, homeWith(cards));
    await app.user.click(lockSwitch());
    await waitFor(() => expect(app.cardApi.isWaiting(freezePath)).toBe(true));
    app.cardApi.fail(freezePath);
    await waitFor(() => expect(app.cardApi.isWaiting(homePath)).toBe(true));
    app.cardApi.answer(homePath, homeWith([virtualCard, lockedCard]));
    await waitFor(() => expect(lockSwitch().getAttribute('aria-checked')).toBe('true'));
    expect(within(slideOf(physicalName)).getByRole('status').textContent).toBe('Your card is locked.');
    expect(within(slideOf(physicalName)).getByText('Locked.')).toBeTruthy();
    expect(cardError()).toBe('');
    noErrorModal({ ...app, strangerAnswers: 0, frozen: true, stolen: false });
  });
});
