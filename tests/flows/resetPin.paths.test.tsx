/**
 * Generated path tests over the reset-PIN chart (spec §4 INPUTTING, SUCCESS, FAILURE), replayed against
 * the real app: the processor's page in its frame, its result posted from the processor's exact
 * origin (other origins and other windows are ignored at every step), success back to returnTo.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { resetPinMachine, resetPinStatusOf } from '../../machines/cards/resetPin.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { commitPinPath, homePath, httpStatusOf, lastBody, physicalCard, pinFormPath, processorOrigin } from '../support/manageCardsFixtures.ts';
import { active, alertText, renderApp } from '../support/renderApp.tsx';

const formUrl = `${processorOrigin}/pin?token=tok-1`;
const events = [
  { type: 'xstate.done.actor.getPinChangeFormUrl', output: { statusCode: 0, url: formUrl } },
  { type: 'xstate.done.actor.getPinChangeFormUrl', output: { statusCode: 0, url: '' } },
  { type: 'xstate.done.actor.getPinChangeFormUrl', output: { statusCode: 3, reason: 'notAllowed' } },
  // 404: no such card of the caller (a bad or stale cardId in the address).
  { type: 'xstate.done.actor.getPinChangeFormUrl', output: { statusCode: 3 } },
  { type: 'xstate.error.actor.getPinChangeFormUrl', error: new Error('no statusCode') },
  { type: 'xstate.done.actor.awaitProcessorResult', output: 0 },
  { type: 'xstate.done.actor.awaitProcessorResult', output: -10 },
  { type: 'xstate.done.actor.awaitProcessorResult', output: -11 },
  { type: 'xstate.done.actor.awaitProcessorResult', output: 'hello' },
  { type: 'xstate.done.actor.commitPinChange', output: { statusCode: 0 } },
  { type: 'xstate.done.actor.commitPinChange', output: { statusCode: 3, reason: 'notAllowed' } },
  { type: 'xstate.done.actor.commitPinChange', output: { statusCode: 5 } },
  { type: 'xstate.error.actor.commitPinChange', error: new Error('no statusCode') },
  { type: 'user.retry' },
];
const run = generatePaths(resetPinMachine, events, { cardId: physicalCard.id, pin: 'card' });

type Ctx = Awaited<ReturnType<typeof renderApp>>;
const returnTo = '/manage-cards?initialSlide=1';
const startAt = `/reset-pin?cardId=${physicalCard.id}&returnTo=${encodeURIComponent(returnTo)}`;
const frameTitle = 'Secure form to set your PIN';
const pinFrame = () => screen.queryByTitle(frameTitle) as HTMLIFrameElement | null;
const sorry = "Sorry, we weren't able to change your PIN...";
const formReplacedText = 'A newer PIN form for this card was opened in another tab or window. Use that form, or tap Try again to use one here.';
const noPinText = "We can't set a PIN for this card now. Only an activated physical card has a PIN.";
/** The form address's answer as the server sends it: `{3}` without a reason is the 404 of a card the caller does not have. */
const formHttpStatusOf = (answer: { statusCode: number }) =>
  answer.statusCode === 3 && !('reason' in answer) ? 404 : httpStatusOf(answer);

/** No form for this card: the reason, no Try again, the way to the cards; the focus on the heading, never nowhere. */
async function expectNoPinForCard() {
  await waitFor(() => expect(alertText()).toBe(`${sorry} ${noPinText}Manage cards`));
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  const alert = screen.getByRole('alert');
  expect(within(alert).getByRole('link', { name: 'Manage cards' }).getAttribute('href')).toBe('/manage-cards');
  expect(pinFrame()).toBeNull();
  expect(screen.queryByText(/secure page of our card processor, below/)).toBeNull();
  await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Set your PIN' })));
}

/** A message event as the browser delivers it to the app's window. */
function post(data: unknown, origin: string, source: Window | null) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

/** What must never reach the chart: the same code from a look-alike origin, the app's own origin, or another window. */
function postDecoys(code: unknown) {
  // Look-alikes of the processor's origin: one digit more on the port, one digit less.
  post(code, `${processorOrigin}1`, pinFrame()?.contentWindow ?? null);
  post(code, processorOrigin.slice(0, -1), pinFrame()?.contentWindow ?? null);
  post(code, window.location.origin, pinFrame()?.contentWindow ?? null);
  post(code, processorOrigin, window);
}

async function closeErrorModal({ session }: Ctx) {
  await waitFor(() => expect(session.getSnapshot().matches({ errorModal: 'open' })).toBe(true));
  session.send({ type: 'user.closeErrorModal' });
}

describe('reset PIN chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(resetPinMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(minimalCover(resetPinMachine, run).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          const app = await renderApp(startAt, active);
          const heading = await screen.findByRole('heading', { level: 1, name: 'Set your PIN' });
          await waitFor(() => expect(document.activeElement).toBe(heading));
          return app;
        },
        events: {
          'xstate.done.actor.getPinChangeFormUrl': async ({ cardApi }, event) => {
            const output = event.output as { statusCode: number };
            await waitFor(() => expect(cardApi.isWaiting(pinFormPath)).toBe(true));
            cardApi.answer(pinFormPath, output, formHttpStatusOf(output));
          },
          'xstate.error.actor.getPinChangeFormUrl': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(pinFormPath)).toBe(true));
            ctx.cardApi.fail(pinFormPath);
            await closeErrorModal(ctx);
          },
          'xstate.done.actor.awaitProcessorResult': async (ctx, event) => {
            const frame = (await screen.findByTitle(frameTitle)) as HTMLIFrameElement;
            const warned = () => ctx.reports.filter((report) => report.message === 'Message from an unknown origin ignored').length;
            const before = warned();
            postDecoys(event.output);
            // Each look-alike origin is reported once, as the host bridge does; the app's own origin and another window are not.
            expect(warned() - before).toBe(2);
            // Nothing happened: still on the processor's page.
            expect(pinFrame()).toBe(frame);
            expect(ctx.cardApi.isWaiting(commitPinPath)).toBe(false);
            post(event.output, processorOrigin, frame.contentWindow);
          },
          'xstate.done.actor.commitPinChange': async ({ cardApi }, event) => {
            const output = event.output as { statusCode: number };
            await waitFor(() => expect(cardApi.isWaiting(commitPinPath)).toBe(true));
            cardApi.answer(commitPinPath, output, httpStatusOf(output));
          },
          'xstate.error.actor.commitPinChange': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(commitPinPath)).toBe(true));
            ctx.cardApi.fail(commitPinPath);
            await closeErrorModal(ctx);
          },
          'user.retry': async ({ user }) => user.click(screen.getByRole('button', { name: 'Try again' })),
        },
        states: [
          {
            when: (s) => s.matches('loadingForm'),
            then: async ({ cardApi }, s) => {
              expect(resetPinStatusOf(s)).toBe('INPUTTING');
              expect(await screen.findByRole('status', { name: 'Opening the secure PIN form' })).toBeTruthy();
              await waitFor(() => expect(cardApi.isWaiting(pinFormPath)).toBe(true));
              const asked = cardApi.requests.filter((request) => request.path === pinFormPath).at(-1)!;
              expect(Object.fromEntries(new URLSearchParams(asked.search))).toEqual({ cardId: physicalCard.id, pin: 'card', locale: 'en' });
              expect(pinFrame()).toBeNull();
            },
          },
          {
            when: (s) => s.matches('inputting'),
            then: async () => {
              const frame = (await screen.findByTitle(frameTitle)) as HTMLIFrameElement;
              expect(frame.getAttribute('src')).toBe(formUrl);
              expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-same-origin');
              expect(alertText()).toBe('');
              expect(screen.getByText('Your PIN is 4 digits. Avoid PINs that are easy to guess, like 1234 or 1111.')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('committing'),
            then: async ({ cardApi }) => {
              expect(await screen.findByRole('status', { name: 'Saving your PIN' })).toBeTruthy();
              await waitFor(() => expect(cardApi.isWaiting(commitPinPath)).toBe(true));
              expect(lastBody(cardApi, commitPinPath)).toEqual({ cardId: physicalCard.id, pin: 'card' });
              // Also after Try again on an unconfirmed change: the same call again, no new form.
              expect(cardApi.isWaiting(pinFormPath)).toBe(false);
              expect(pinFrame()).toBeNull();
            },
          },
          {
            when: (s) => s.matches('failed'),
            then: async (_ctx, s) => {
              expect(resetPinStatusOf(s)).toBe('FAILURE');
              await waitFor(() => expect(alertText()).toBe("Sorry, we weren't able to change your PIN...Try again"));
              expect(pinFrame()).toBeNull();
            },
          },
          {
            // The page posted -11: a newer form for this card was opened elsewhere; Try again opens one here.
            when: (s) => s.matches('formReplaced'),
            then: async (_ctx, s) => {
              expect(resetPinStatusOf(s)).toBe('FAILURE');
              await waitFor(() => expect(alertText()).toBe(`${sorry} ${formReplacedText}Try again`));
              expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
              expect(pinFrame()).toBeNull();
            },
          },
          {
            // The card API refused the form for this card (404 {3}, 403 {3, reason}): no retry, the way to the cards.
            when: (s) => s.matches('noPinForCard'),
            then: async (_ctx, s) => {
              expect(resetPinStatusOf(s)).toBe('FAILURE');
              await expectNoPinForCard();
            },
          },
          {
            // The processor set the PIN; its recording got no answer, or the server's own failure.
            when: (s) => s.matches('unconfirmed'),
            then: async (_ctx, s) => {
              expect(resetPinStatusOf(s)).toBe('FAILURE');
              await waitFor(() =>
                expect(alertText()).toMatch(
                  /^Your new PIN may already be set, but we couldn't confirm it\. (Check your connection and try again|Please try again)\.Try again$/,
                ),
              );
              expect(pinFrame()).toBeNull();
              // No page below to type it on: the screen does not point at one.
              expect(screen.queryByText(/secure page of our card processor, below/)).toBeNull();
            },
          },
          {
            // The processor set the PIN; the card API refused to record it.
            when: (s) => s.matches('unrecorded'),
            then: async (_ctx, s) => {
              expect(resetPinStatusOf(s)).toBe('FAILURE');
              await waitFor(() =>
                expect(alertText()).toBe(
                  "Your new PIN may already be set, but we couldn't confirm it. To be sure, tap Try again and set it once more.Try again",
                ),
              );
              expect(pinFrame()).toBeNull();
            },
          },
          {
            when: (s) => s.matches('succeeded'),
            then: async ({ router, cardApi }) => {
              await waitFor(() => expect(router.state.location.href).toBe(returnTo));
              expect(await screen.findByText('Your new PIN is set.')).toBeTruthy();
              expect(await screen.findByRole('heading', { level: 1, name: 'Manage cards' })).toBeTruthy();
              await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
            },
          },
        ],
      });
    },
    30_000,
  );
});

describe('reset PIN, beside the paths', () => {
  it('changes the ATM PIN the same way, in Spanish', async () => {
    const app = await renderApp(`/reset-pin?cardId=${physicalCard.id}&pin=atm`, { ...active, locale: 'es' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cambie su PIN para cajeros automáticos' })).toBeTruthy();
    // The tab says what the heading says, not the route's "Set your PIN" (WCAG 2.2 SC 2.4.2).
    await waitFor(() => expect(document.title).toBe('Cambie su PIN para cajeros automáticos · Tarjeta Providers'));
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    const asked = app.cardApi.requests.filter((request) => request.path === pinFormPath).at(-1)!;
    expect(Object.fromEntries(new URLSearchParams(asked.search))).toEqual({ cardId: physicalCard.id, pin: 'atm', locale: 'es' });
    app.cardApi.answer(pinFormPath, { statusCode: 0, url: formUrl });
    const frame = (await screen.findByTitle('Formulario seguro para cambiar su PIN de cajeros automáticos')) as HTMLIFrameElement;
    post(-10, processorOrigin, frame.contentWindow);
    await waitFor(() => expect(alertText()).toBe('Lo sentimos, no pudimos cambiar su PIN...Intentar de nuevo'));
    await app.user.click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    // A fresh form: the spent token is never used again.
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    app.cardApi.answer(pinFormPath, { statusCode: 0, url: `${processorOrigin}/pin?token=tok-2` });
    const again = (await screen.findByTitle('Formulario seguro para cambiar su PIN de cajeros automáticos')) as HTMLIFrameElement;
    expect(again.getAttribute('src')).toBe(`${processorOrigin}/pin?token=tok-2`);
    post(0, processorOrigin, again.contentWindow);
    await waitFor(() => expect(app.cardApi.isWaiting(commitPinPath)).toBe(true));
    expect(lastBody(app.cardApi, commitPinPath)).toEqual({ cardId: physicalCard.id, pin: 'atm' });
    app.cardApi.answer(commitPinPath, { statusCode: 0 });
    // No returnTo: back to the cards.
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/manage-cards'));
    expect(await screen.findByText('Su nuevo PIN está listo.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Administrar tarjetas · Tarjeta Providers'));
  });

  it('after the processor set the PIN, a recording call with no answer is sent again as it was, never a new form', async () => {
    const app = await renderApp(startAt, active);
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    app.cardApi.answer(pinFormPath, { statusCode: 0, url: formUrl });
    post(0, processorOrigin, ((await screen.findByTitle(frameTitle)) as HTMLIFrameElement).contentWindow);
    await waitFor(() => expect(app.cardApi.isWaiting(commitPinPath)).toBe(true));
    app.cardApi.fail(commitPinPath);
    await closeErrorModal(app);
    await waitFor(() => expect(alertText()).toBe("Your new PIN may already be set, but we couldn't confirm it. Please try again.Try again"));
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(app.cardApi.isWaiting(commitPinPath)).toBe(true));
    app.cardApi.answer(commitPinPath, { statusCode: 0 });
    await waitFor(() => expect(app.router.state.location.href).toBe(returnTo));
    expect(await screen.findByText('Your new PIN is set.')).toBeTruthy();
    const sent = (path: string) => app.cardApi.requests.filter((request) => request.path === path);
    expect(sent(pinFormPath)).toHaveLength(1);
    expect(sent(commitPinPath).map((request) => JSON.parse(String(request.init?.body)))).toEqual([
      { cardId: physicalCard.id, pin: 'card' },
      { cardId: physicalCard.id, pin: 'card' },
    ]);
  });

  it('after -11 says a newer form was opened elsewhere, and Try again opens a fresh one here', async () => {
    const app = await renderApp(startAt, active);
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    app.cardApi.answer(pinFormPath, { statusCode: 0, url: formUrl });
    const frame = (await screen.findByTitle(frameTitle)) as HTMLIFrameElement;
    // The cardholder was on the processor's page: the focus is in its frame, which goes.
    frame.focus();
    post(-11, processorOrigin, frame.contentWindow);
    await waitFor(() => expect(alertText()).toBe(`${sorry} ${formReplacedText}Try again`));
    expect(pinFrame()).toBeNull();
    // Not left nowhere: Try again takes it.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' })));
    await app.user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    app.cardApi.answer(pinFormPath, { statusCode: 0, url: `${processorOrigin}/pin?token=tok-2` });
    expect(((await screen.findByTitle(frameTitle)) as HTMLIFrameElement).getAttribute('src')).toBe(`${processorOrigin}/pin?token=tok-2`);
    expect(alertText()).toBe('');
  });

  it.each([
    ['404 {3}: no such card of the caller', { statusCode: 3 }, 404],
    ['403 {3, notAllowed}: not an activated physical card', { statusCode: 3, reason: 'notAllowed' }, 403],
    ['400 {2}: a cardId in the address that is no card id', { statusCode: 2 }, 400],
  ])('a form refused for the card (%s) offers no Try again, but the way to the cards', async (_name, answer, httpStatus) => {
    const app = await renderApp(startAt, active);
    await screen.findByRole('heading', { level: 1, name: 'Set your PIN' });
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    // The focus nowhere as the answer comes (the page's first screen): it lands on the heading.
    (document.activeElement as HTMLElement | null)?.blur();
    app.cardApi.answer(pinFormPath, answer, httpStatus);
    await expectNoPinForCard();
    expect(app.cardApi.requests.filter((request) => request.path === pinFormPath)).toHaveLength(1);
    await app.user.click(screen.getByRole('link', { name: 'Manage cards' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/manage-cards'));
  });

  it('in Spanish, says why in the usted voice', async () => {
    const app = await renderApp(startAt, { ...active, locale: 'es' });
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    app.cardApi.answer(pinFormPath, { statusCode: 3 }, 404);
    await waitFor(() =>
      expect(alertText()).toBe(
        'Lo sentimos, no pudimos cambiar su PIN... No podemos establecer un PIN para esta tarjeta ahora. Solo una tarjeta física activada tiene PIN.Administrar tarjetas',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Intentar de nuevo' })).toBeNull();
  });

  it('never frames a page that is not on the processor origin', async () => {
    const app = await renderApp(startAt, active);
    await waitFor(() => expect(app.cardApi.isWaiting(pinFormPath)).toBe(true));
    app.cardApi.answer(pinFormPath, { statusCode: 0, url: 'https://evil.example/pin?token=tok-1' });
    await waitFor(() => expect(alertText()).toBe("Sorry, we weren't able to change your PIN...Try again"));
    expect(document.querySelector('iframe')).toBeNull();
    expect(app.reports).toContainEqual({ level: 'error', message: 'PIN form is not on a processor origin' });
  });

  it.each([
    ['an external returnTo', `/reset-pin?cardId=${physicalCard.id}&returnTo=${encodeURIComponent('https://evil.example/x')}`],
    ['a protocol-relative returnTo', `/reset-pin?cardId=${physicalCard.id}&returnTo=${encodeURIComponent('//evil.example/x')}`],
  ])('ignores %s and returns to the cards', async (_name, at) => {
    await renderApp(at, active);
    expect((await screen.findByRole('link', { name: 'Back' })).getAttribute('href')).toBe('/manage-cards');
  });

  it('sends a link without a card to the cards screen, where the card is chosen', async () => {
    const app = await renderApp('/reset-pin', active);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/manage-cards'));
  });
});
