/**
 * Generated path tests over the lost-or-stolen chart, replayed against the real app from the cards
 * screen: what the cardholder reads before and after, what is sent, and the cards loaded again after
 * a report was sent, whatever came of it (the blocked card, its replacement on its way): a report
 * whose answer was lost may have blocked the card, and a refused one may find it reported already.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Card } from '../../contract/cards/types.ts';
import { lostStolenMachine } from '../../machines/cards/lostStolen.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import {
  answerCardsLoad,
  homePath,
  homeWith,
  httpStatusOf,
  lastBody,
  pendingCard,
  physicalCard,
  reportPath,
  slideOf,
  virtualCard,
} from '../support/manageCardsFixtures.ts';
import { active, alertText, renderApp } from '../support/renderApp.tsx';

const lostCard: Card = { ...physicalCard, status: 'LOST', isActive: false, replacedByCardId: pendingCard.id };
const replacement: Card = { ...pendingCard, replacesCardId: physicalCard.id };

const events = [
  { type: 'user.choose', status: 'LOST' },
  { type: 'user.choose', status: 'STOLEN' },
  { type: 'user.confirm' },
  { type: 'user.back' },
  { type: 'user.retry' },
  { type: 'user.cancel' },
  { type: 'user.done' },
  { type: 'xstate.done.actor.reportCard', output: { statusCode: 0, card: lostCard, replacement } },
  { type: 'xstate.done.actor.reportCard', output: { statusCode: 3, reason: 'notAllowed' } },
  // The server's own failure: it may have committed before it failed.
  { type: 'xstate.done.actor.reportCard', output: { statusCode: 5 } },
  { type: 'xstate.error.actor.reportCard', error: new Error('no statusCode') },
];
const run = generatePaths(lostStolenMachine, events, { card: physicalCard });

/** The app, and what the cardholder chose last (lost or stolen): what is said and sent, never read from the chart. */
type Ctx = Awaited<ReturnType<typeof renderApp>> & { chosen: 'LOST' | 'STOLEN' | null };
const title = 'Report a lost or stolen card';
const homeRequests = ({ cardApi }: Pick<Ctx, 'cardApi'>) => cardApi.requests.filter((request) => request.path === homePath).length;
const button = (name: string) => screen.getByRole('button', { name });

describe('lost or stolen chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(lostStolenMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const cover = minimalCover(lostStolenMachine, run);
  // Both choices are replayed, so what is said and sent is checked for each: a chart that kept the
  // wrong one makes the states after either choice alike, and the cover would then take only one.
  it('the replayed paths choose both lost and stolen', () => {
    const chosen = cover.flatMap((path) => path.steps.filter((step) => step.event.type === 'user.choose').map((step) => (step.event as { status?: string }).status));
    expect(new Set(chosen)).toEqual(new Set(['LOST', 'STOLEN']));
  });

  it.each(cover.map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          const app = await renderApp('/manage-cards', active);
          await answerCardsLoad(app.cardApi, homeWith([virtualCard, physicalCard]));
          // The virtual card cannot be reported: only the physical one offers it.
          expect(within(slideOf('Virtual card ending in 4821')).queryByRole('button', { name: 'Report lost or stolen' })).toBeNull();
          await app.user.click(within(slideOf('Physical card ending in 5678')).getByRole('button', { name: 'Report lost or stolen' }));
          return { ...app, chosen: null };
        },
        events: {
          'user.choose': async (ctx, event) => {
            ctx.chosen = event.status as Ctx['chosen'];
            await ctx.user.click(button(event.status === 'LOST' ? "It's lost" : 'It was stolen'));
          },
          'user.confirm': async ({ user }) => user.click(button('Block my card and send a new one')),
          'user.back': async ({ user }) => user.click(button('Back')),
          'user.retry': async ({ user }) => user.click(button('Try again')),
          'user.cancel': async ({ user }) => user.click(button('Cancel')),
          'user.done': async ({ user }) => user.click(button('Back to your cards')),
          'xstate.done.actor.reportCard': async ({ cardApi }, event) => {
            const output = event.output as { statusCode: number };
            await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
            cardApi.answer(reportPath, output, httpStatusOf(output));
          },
          'xstate.error.actor.reportCard': async ({ cardApi, session }) => {
            await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
            cardApi.fail(reportPath);
            // The app's error modal says it; closed so the next step starts clean.
            await waitFor(() => expect(session.getSnapshot().matches({ errorModal: 'open' })).toBe(true));
            session.send({ type: 'user.closeErrorModal' });
          },
        },
        states: [
          {
            when: (s) => s.matches('choosing'),
            then: async () => {
              const heading = await screen.findByRole('heading', { level: 1, name: title });
              await waitFor(() => expect(document.activeElement).toBe(heading));
              // In place of the cards at the same address, the tab says so too (WCAG 2.2 SC 2.4.2).
              await waitFor(() => expect(document.title).toBe('Report a lost or stolen card · Providers card'));
              expect(screen.getByText('Is your card lost, or was it stolen?')).toBeTruthy();
              // The card being reported, by its masked number.
              const report = screen.getByRole('region', { name: title });
              expect(report.querySelector('.card-name')?.textContent).toBe('Physical card •••• 5678ending in 5678');
              expect(button("It's lost")).toBeTruthy();
              expect(button('It was stolen')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('confirming') || s.matches('unconfirmed') || s.matches('refused') || s.matches('reporting'),
            then: async ({ cardApi, chosen }, s) => {
              expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
              expect(
                screen.getByText(chosen === 'STOLEN' ? "You're reporting this card stolen." : "You're reporting this card lost."),
              ).toBeTruthy();
              // What a report does, said before it is sent; refused, only the refusal is said.
              const does = [
                "We block it right away for all purchases and ATM withdrawals. It can't be unlocked again.",
                'We send you a replacement card free of charge. It arrives in 10 to 15 business days.',
                'Your virtual card keeps working for online purchases.',
              ];
              for (const sentence of does) expect(screen.queryByText(sentence) !== null, sentence).toBe(!s.matches('refused'));
              if (s.matches('reporting')) {
                // Unavailable, not disabled: the keyboard's focus stays on it through the call, and a press sends nothing more.
                expect(button('Blocking your card…').getAttribute('aria-disabled')).toBe('true');
                expect(button('Back').getAttribute('aria-disabled')).toBe('true');
                await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
                expect(lastBody(cardApi, reportPath)).toEqual({ id: physicalCard.id, status: chosen });
                const sent = cardApi.requests.length;
                fireEvent.click(button('Blocking your card…'));
                fireEvent.click(button('Back'));
                expect(cardApi.requests.length).toBe(sent);
                expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
              } else if (s.matches('unconfirmed')) {
                // No answer: the card API may have blocked the card. Never "It isn't blocked".
                await waitFor(() => expect(alertText()).toBe("We couldn't confirm your report. Your card may already be blocked.Try again"));
                expect(screen.queryByText(/isn't blocked/)).toBeNull();
                expect(screen.queryByRole('button', { name: 'Block my card and send a new one' })).toBeNull();
                // Try again sends the same report: the other status cannot be chosen from here.
                expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
                // Not "Cancel": the report may have been made. Back to the cards loads them again.
                expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
                expect(button('Back to your cards')).toBeTruthy();
                // The pressed button is gone: the keyboard's focus is on what can be done next.
                expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
              } else if (s.matches('refused')) {
                // Refused now says nothing of before: the card may have been reported already.
                await waitFor(() =>
                  expect(alertText()).toBe(
                    "We weren't able to report your card. It may have been reported or replaced already. Your cards show how it is now.Back to your cards",
                  ),
                );
                expect(screen.queryByText(/isn't blocked/)).toBeNull();
                // Refused again if sent again: no retry.
                expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
                expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
                expect(document.activeElement).toBe(button('Back to your cards'));
              } else {
                expect(button('Block my card and send a new one').getAttribute('aria-disabled')).toBe('false');
                expect(alertText()).toBe('');
              }
            },
          },
          {
            when: (s) => s.matches('reported'),
            then: async () => {
              const heading = await screen.findByRole('heading', { level: 1, name: 'Your card is blocked' });
              await waitFor(() => expect(document.activeElement).toBe(heading));
              expect(document.title).toBe('Report a lost or stolen card · Providers card');
              expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe('Your card ending in 5678 is blocked for all purchases and ATM withdrawals now.');
              expect(screen.getByText(/A replacement card is on its way, free of charge\./).textContent).toBe(
                'A replacement card is on its way, free of charge. Arrives between Dec 8, 2026 and Dec 15, 2026.',
              );
              expect(screen.getByText('Your virtual card keeps working for online purchases.')).toBeTruthy();
            },
          },
          {
            // A report sent (reported, refused or unconfirmed): the cards load again, and show the card
            // as the card API has it: here blocked (as it is when a lost answer's report went through),
            // with its replacement on its way.
            when: (s) => s.matches('finished'),
            then: async (ctx) => {
              await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
              expect(homeRequests(ctx)).toBe(2);
              await answerCardsLoad(ctx.cardApi, homeWith([virtualCard, lostCard, replacement]));
              expect(within(slideOf('Physical card ending in 5678')).getByText('Reported lost.')).toBeTruthy();
              expect(within(slideOf('Physical card ending in 5678')).getByText('Blocked for all purchases and ATM withdrawals.')).toBeTruthy();
              expect(within(slideOf('Physical card ending in 5678')).queryByRole('switch')).toBeNull();
              const next = slideOf('Replacement card');
              expect(within(next).getByText('On its way.')).toBeTruthy();
              expect(within(next).getByText('Arrives between Dec 8, 2026 and Dec 15, 2026.')).toBeTruthy();
              // Not shipped yet: nothing to activate (manageCards.paths checks a shipped replacement's link).
              expect(within(next).queryByRole('link', { name: 'Activate' })).toBeNull();
              // The card can no longer be reported: the keyboard's focus is on the screen's heading.
              expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Manage cards' }));
            },
          },
          {
            when: (s) => s.matches('cancelled'),
            then: async (ctx) => {
              expect(await screen.findByRole('heading', { level: 1, name: 'Manage cards' })).toBeTruthy();
              await waitFor(() => expect(document.title).toBe('Manage cards · Providers card'));
              expect(within(slideOf('Physical card ending in 5678')).getByText('Active')).toBeTruthy();
              expect(homeRequests(ctx)).toBe(1);
              // Back where the report began, for the keyboard too.
              expect(document.activeElement).toBe(within(slideOf('Physical card ending in 5678')).getByRole('button', { name: 'Report lost or stolen' }));
            },
          },
        ],
      });
    },
    30_000,
  );
});

describe('a damaged card waiting for its replacement', () => {
  // Replaced for damage, not shipped yet: the old card still works, so a thief could use it until then.
  const damaged: Card = { ...physicalCard, replacedByCardId: pendingCard.id };
  const ordered: Card = { ...pendingCard, replacesCardId: physicalCard.id };

  it('can be reported stolen: blocked at once, the card already ordered takes its place and no other is sent', async () => {
    const { user, cardApi } = await renderApp('/manage-cards', active);
    await answerCardsLoad(cardApi, homeWith([virtualCard, damaged, ordered]));
    const slide = slideOf('Physical card ending in 5678');
    expect(within(slide).getByText('It keeps working until your new card ships.')).toBeTruthy();
    // Its replacement is ordered: it cannot be replaced again, but it can be blocked.
    expect(within(slide).queryByRole('link', { name: 'Replace a damaged card' })).toBeNull();
    await user.click(within(slide).getByRole('button', { name: 'Report lost or stolen' }));
    await user.click(await screen.findByRole('button', { name: 'It was stolen' }));

    expect(screen.getByText("The new card you already ordered takes its place. We don't send another one.")).toBeTruthy();
    expect(screen.queryByText('We send you a replacement card free of charge. It arrives in 10 to 15 business days.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Block my card and send a new one' })).toBeNull();
    await user.click(button('Block my card'));
    await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
    expect(lastBody(cardApi, reportPath)).toEqual({ id: damaged.id, status: 'STOLEN' });
    cardApi.answer(reportPath, { statusCode: 0, card: { ...damaged, status: 'STOLEN', isActive: false }, replacement: ordered });

    expect(await screen.findByRole('heading', { level: 1, name: 'Your card is blocked' })).toBeTruthy();
    expect(screen.getByText(/Your new card is still on its way\./).textContent).toBe('Your new card is still on its way. Arrives between Dec 8, 2026 and Dec 15, 2026.');
    expect(screen.queryByText(/free of charge/)).toBeNull();
  });
});

describe('a report whose answer is lost', () => {
  // The card API blocked the card, then the network dropped its answer: the app must not say it did not happen.
  it('says it could not confirm, sends the same report again, and shows the card blocked once answered', async () => {
    const { user, cardApi, session } = await renderApp('/manage-cards', active);
    await answerCardsLoad(cardApi, homeWith([virtualCard, physicalCard]));
    await user.click(within(slideOf('Physical card ending in 5678')).getByRole('button', { name: 'Report lost or stolen' }));
    await user.click(await screen.findByRole('button', { name: 'It was stolen' }));
    await user.click(button('Block my card and send a new one'));
    await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
    cardApi.fail(reportPath);
    await waitFor(() => expect(session.getSnapshot().matches({ errorModal: 'open' })).toBe(true));
    session.send({ type: 'user.closeErrorModal' });

    await waitFor(() => expect(alertText()).toBe("We couldn't confirm your report. Your card may already be blocked.Try again"));
    expect(screen.queryByText(/isn't blocked/)).toBeNull();
    await user.click(button('Try again'));
    await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
    // The same report: the card API answers a card reported again as what it was reported as reported.
    expect(cardApi.requests.filter((request) => request.path === reportPath).map((request) => JSON.parse(String(request.init?.body)))).toEqual([
      { id: physicalCard.id, status: 'STOLEN' },
      { id: physicalCard.id, status: 'STOLEN' },
    ]);
    const stolen: Card = { ...lostCard, status: 'STOLEN' };
    cardApi.answer(reportPath, { statusCode: 0, card: stolen, replacement });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your card is blocked' })).toBeTruthy();
  });

  it('leaving after it loads the cards again, which show the card blocked', async () => {
    const ctx = await renderApp('/manage-cards', active);
    const { user, cardApi, session } = ctx;
    await answerCardsLoad(cardApi, homeWith([virtualCard, physicalCard]));
    await user.click(within(slideOf('Physical card ending in 5678')).getByRole('button', { name: 'Report lost or stolen' }));
    await user.click(await screen.findByRole('button', { name: "It's lost" }));
    await user.click(button('Block my card and send a new one'));
    await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
    cardApi.fail(reportPath);
    await waitFor(() => expect(session.getSnapshot().matches({ errorModal: 'open' })).toBe(true));
    session.send({ type: 'user.closeErrorModal' });
    await user.click(await screen.findByRole('button', { name: 'Back to your cards' }));

    await waitFor(() => expect(homeRequests(ctx)).toBe(2));
    await answerCardsLoad(cardApi, homeWith([virtualCard, lostCard, replacement]));
    expect(within(slideOf('Physical card ending in 5678')).getByText('Reported lost.')).toBeTruthy();
    expect(within(slideOf('Physical card ending in 5678')).queryByRole('switch')).toBeNull();
  });
});
