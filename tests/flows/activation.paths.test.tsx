/**
 * Generated path tests over the activation chart (spec §4 INPUTTING → PROCESSING → SUCCESS | FAILURE),
 * replayed against the real app and router: the last 4 digits checked first, then the card activated;
 * each refusal's own words, a wrong expiry clearing its field, the server's wait, and the reset.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import type { Card } from '../../contract/cards/types.ts';
import { activationMachine } from '../../machines/cards/activation.ts';
import { coverageOf, describePath, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { answerCall, cardOnItsWay, closeErrorModal, homePath, homeWith, physicalCard, virtualCard } from '../support/cardOrder.ts';
import { generateListedPaths } from '../support/listedPaths.ts';
import { active, renderApp, expectTabTitle } from '../support/renderApp.tsx';
import { futureCardExpiry } from '../support/cardExpiry.ts';
import { passServerWait, serverWaitMinutes, serverWaitSeconds } from '../support/replayClock.ts';

const verifyPath = '/api/v1/verify/card-last-four';
const activatePath = '/api/v1/activate-card';
const listed = (event: EventObject & Record<string, unknown>): EventObject => event;
const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('no statusCode') });

const shipped: Card = { ...cardOnItsWay, delivery: { ...cardOnItsWay.delivery!, shippedOn: '2026-11-25' } };
const activated: Card = { ...physicalCard, id: shipped.id, lastFour: '7390' };
/** The card's expiry as printed: in date whenever the suite runs (the form refuses a month already over). */
const rightExpiry = futureCardExpiry();
const rightCard = listed({ type: 'user.submit', lastFourCard: '7390', expiry: rightExpiry });
const lastFourVerified = done('verifyCardLastFour', { statusCode: 0 });
const wait = { type: 'xstate.after.untilRetry.activation.waiting' };
const refusalsOf = (id: string) => [
  done(id, { statusCode: 3, reason: 'lastFourMismatch', attemptsLeft: 2 }),
  done(id, { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
  done(id, { statusCode: 3, reason: 'notShipped' }),
  done(id, { statusCode: 3, reason: 'noPendingCard' }),
  done(id, { statusCode: 5 }),
  failed(id),
];

const runs = [
  // The last 4 digits: the form's rules, then each answer of POST /verify/card-last-four.
  generateListedPaths(activationMachine, [
    rightCard,
    listed({ type: 'user.submit', lastFourCard: '73', expiry: '13/30' }),
    lastFourVerified,
    ...refusalsOf('verifyCardLastFour'),
    wait,
    { type: 'user.reset' },
  ]),
  // The card: each answer of POST /activate-card, a wrong expiry among them.
  generateListedPaths(activationMachine, [
    rightCard,
    lastFourVerified,
    done('activateCard', { statusCode: 0, card: activated }),
    done('activateCard', { statusCode: 3, reason: 'expiryMismatch', attemptsLeft: 1 }),
    ...refusalsOf('activateCard'),
    wait,
    { type: 'user.reset' },
  ]),
];

type Typed = { lastFourCard: string; expiry: string };
type Ctx = Awaited<ReturnType<typeof renderApp>> & { typed: Typed };
const empty: Typed = { lastFourCard: '', expiry: '' };

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
/** What each alert says, the empty live regions left out. */
const alerts = () =>
  screen
    .queryAllByRole('alert')
    .map((element) => element.textContent ?? '')
    .filter((text) => text !== '');

async function fill({ user }: Ctx, label: string, value: string) {
  const input = await screen.findByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
}

const pathOf: Record<string, string> = { verifyCardLastFour: verifyPath, activateCard: activatePath };

function plan(entry: string, replacement: boolean): Parameters<typeof replayPath<Ctx>>[1] {
  const answer = async (ctx: Ctx, event: EventObject & Record<string, unknown>) => {
    await answerCall(ctx.cardApi, pathOf[event.type.split('.').at(-1)!]!, event);
    if (event.type.startsWith('xstate.error')) await closeErrorModal(ctx.user);
  };
  return {
    start: async () => {
      const app = await renderApp(entry, active);
      // Opened from outside home and the card screens: the route checks that a card awaits activation.
      await answerCall(app.cardApi, homePath, { type: 'xstate.done', output: homeWith({ cards: [virtualCard, shipped] }) });
      return { ...app, typed: empty };
    },
    events: {
      'user.submit': async (ctx, event) => {
        ctx.typed = { lastFourCard: String(event.lastFourCard), expiry: String(event.expiry) };
        await fill(ctx, 'Last 4 digits of your card', ctx.typed.lastFourCard);
        await fill(ctx, 'Expiration date (MM/YY)', ctx.typed.expiry);
        await ctx.user.click(screen.getByRole('button', { name: 'Activate' }));
      },
      // Back to the form from FAILURE: what was sent is there again, not to be typed twice.
      'user.reset': async (ctx) => ctx.user.click(await screen.findByRole('button', { name: 'Activate' })),
      'xstate.after.untilRetry.activation.waiting': async () => {
        await passServerWait();
        await waitFor(() => expect(screen.queryByText('Too many tries')).toBeNull());
      },
      'xstate.done.actor.verifyCardLastFour': answer,
      'xstate.error.actor.verifyCardLastFour': answer,
      'xstate.done.actor.activateCard': async (ctx, event) => {
        await answer(ctx, event);
        // Spec §4: a wrong expiry clears the expiry field.
        if ((event.output as { reason?: string }).reason === 'expiryMismatch') ctx.typed = { ...ctx.typed, expiry: '' };
      },
      'xstate.error.actor.activateCard': answer,
    },
    states: [
      {
        when: (s) => s.matches('inputting') || s.matches('waiting'),
        then: async (ctx, s) => {
          const heading = await screen.findByRole('heading', { level: 1, name: replacement ? 'Activate your replacement card' : 'Activate your card' });
          expect(screen.queryByText('Your Providers Card has arrived. Activate it to start using it.') !== null).toBe(replacement);
          expect(screen.queryByText(/Your old card no longer works\./) !== null).toBe(replacement);
          await waitFor(() => expect(ctx.router.state.location.pathname).toBe('/activate/1'));
          expect(document.querySelector('.step-indicator-text')?.textContent).toBe('Step 1 of 2');
          const lastFour = field('Last 4 digits of your card');
          const expiry = field('Expiration date (MM/YY)');
          expect(lastFour.getAttribute('inputmode')).toBe('numeric');
          expect(expiry.getAttribute('autocomplete')).toBe('cc-exp');
          // What was typed stays, but a wrong expiry, which is cleared, with the cursor put back there.
          await waitFor(() => expect({ lastFourCard: lastFour.value, expiry: expiry.value }).toEqual(ctx.typed));
          // After a refused try the focus is on the first field in error (the Activate button had dropped it).
          if (s.matches({ inputting: 'expiryMismatch' })) expect(document.activeElement).toBe(expiry);
          else if (s.matches({ inputting: 'lastFourMismatch' })) await waitFor(() => expect(document.activeElement).toBe(lastFour));
          else if (s.matches({ inputting: 'invalid' })) await waitFor(() => expect(document.activeElement?.getAttribute('aria-invalid')).toBe('true'));
          else if (s.matches({ inputting: 'idle' }) && ctx.typed === empty) await waitFor(() => expect(document.activeElement).toBe(heading));

          const lastFourError = s.matches({ inputting: 'invalid' })
            ? 'The last 4 digits are 4 numbers, printed on the front of your card.'
            : s.matches({ inputting: 'lastFourMismatch' })
              ? "These aren't the last 4 digits of the card we sent you. You have 2 more tries."
              : '';
          const expiryError = s.matches({ inputting: 'invalid' })
            ? 'Enter the expiration date as MM/YY, with a month from 01 to 12.'
            : s.matches({ inputting: 'expiryMismatch' })
              ? "This expiration date doesn't match the card we sent you. Please enter it again. You have 1 more try."
              : '';
          await waitFor(() => {
            expect(document.getElementById('activation-last-four-error')?.textContent ?? '').toBe(lastFourError);
            expect(document.getElementById('activation-expiry-error')?.textContent ?? '').toBe(expiryError);
          });
          // Each problem is tied to its field, and said once: the focus goes to the first field in error,
          // which reads it (not also an alert, which read it twice).
          expect(lastFour.getAttribute('aria-invalid')).toBe(lastFourError ? 'true' : null);
          expect(expiry.getAttribute('aria-invalid')).toBe(expiryError ? 'true' : null);
          expect(lastFour.getAttribute('aria-describedby')).toBe(lastFourError ? 'activation-last-four-error' : null);
          expect(expiry.getAttribute('aria-describedby')).toBe(expiryError ? 'activation-expiry-error' : null);
          const others = s.matches({ inputting: 'notShipped' })
            ? ["Your card hasn't shipped yet. You can activate it once it's in your hands."]
            : s.matches('waiting')
              ? [`Too many triesFor your security, please wait ${serverWaitMinutes} minutes before trying again.`]
              : [];
          // A mismatched expiry: the chart emptied and focused its field before the error came, so the
          // error is said on its own (an unseen alert), once.
          expect(alerts()).toEqual(s.matches({ inputting: 'expiryMismatch' }) ? [expiryError] : others);
          if (lastFourError || expiryError) await waitFor(() => expect(document.activeElement).toBe(lastFourError ? lastFour : expiry));
          // A refusal for the whole form (not shipped, too many tries) takes the focus to its message.
          if (others.length > 0) await waitFor(() => expect(document.activeElement?.textContent).toBe(others[0]));
          expect(screen.getByRole('button', { name: 'Activate' }).getAttribute('aria-disabled')).toBe(String(s.matches('waiting')));
        },
      },
      {
        when: (s) => s.matches({ processing: 'verifyingLastFour' }),
        then: async ({ cardApi }) => {
          expect((await screen.findByRole('button', { name: 'Activating…' })).getAttribute('aria-disabled')).toBe('true');
          await waitFor(() => expect(cardApi.isWaiting(verifyPath)).toBe(true));
          const request = cardApi.requests.filter((candidate) => candidate.path === verifyPath).at(-1)!;
          expect(request.init?.method).toBe('POST');
          expect(JSON.parse(String(request.init?.body))).toEqual({ lastFourCard: '7390' });
        },
      },
      {
        when: (s) => s.matches({ processing: 'activating' }),
        then: async ({ cardApi }) => {
          expect((await screen.findByRole('button', { name: 'Activating…' })).getAttribute('aria-disabled')).toBe('true');
          await waitFor(() => expect(cardApi.isWaiting(activatePath)).toBe(true));
          const request = cardApi.requests.filter((candidate) => candidate.path === activatePath).at(-1)!;
          expect(JSON.parse(String(request.init?.body))).toEqual({ lastFourCard: '7390', expiry: rightExpiry });
          expect(new Headers(request.init?.headers).get('authorization')).toBe('Bearer access-1');
        },
      },
      {
        when: (s) => s.matches('success'),
        then: async ({ router }) => {
          const heading = await screen.findByRole('heading', { level: 1, name: 'Your card is active' });
          await expectTabTitle('Your card is active');
          await waitFor(() => expect(document.activeElement).toBe(heading));
          await waitFor(() => expect(router.state.location.pathname).toBe('/activate/2'));
          expect(document.querySelector('.step-indicator-text')?.textContent).toBe('Step 2 of 2');
          expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe(
            replacement
              ? 'You can now use your Providers Card. Your old card no longer works.'
              : 'You can now use your Providers Card.',
          );
          // The PIN is set for the card just activated, then home again.
          expect(screen.getByRole('link', { name: 'Set your PIN' }).getAttribute('href')).toBe(
            `/reset-pin?cardId=${cardOnItsWay.id}&returnTo=%2Fhome`,
          );
          expect(screen.getByRole('link', { name: 'Go to home' }).getAttribute('href')).toBe('/home');
        },
      },
      {
        when: (s) => s.matches('failure'),
        then: async ({ router }) => {
          const heading = await screen.findByRole('heading', { level: 1, name: "We couldn't activate your card" });
          await expectTabTitle("We couldn't activate your card");
          await waitFor(() => expect(document.activeElement).toBe(heading));
          expect(alerts()).toEqual(["Sorry, we weren't able to activate your Providers Card. Tap Activate to go back and try again."]);
          expect(screen.queryByLabelText('Last 4 digits of your card')).toBeNull();
          expect(router.state.location.pathname).toBe('/activate/1');
        },
      },
      {
        when: (s) => s.matches('nothingToActivate'),
        then: async () => {
          expect(await screen.findByRole('heading', { level: 1, name: 'No card to activate' })).toBeTruthy();
          await expectTabTitle('No card to activate');
          expect(screen.getByText("There's no card waiting to be activated. If you've already activated it, it's ready to use.")).toBeTruthy();
          expect(screen.getByRole('link', { name: 'Manage cards' }).getAttribute('href')).toBe('/manage-cards');
        },
      },
    ],
  };
}

describe('activation chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(activationMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(runs.flatMap((run) => minimalCover(activationMachine, run)).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => replayPath<Ctx>(path, plan('/activate/1', false)),
    30_000,
  );

  // A replacement card, from the carrier's link: its own words, and the old card stopped once it is active.
  const activatedPath = runs[1]!.paths.find((candidate) => candidate.state.matches('success'))!;
  it(`a replacement from the carrier: ${describePath(activatedPath)}`, async () => {
    await replayPath<Ctx>(activatedPath, plan('/activate/1?isReplacement=true&source=carrier', true));
}, 30_000);
});
