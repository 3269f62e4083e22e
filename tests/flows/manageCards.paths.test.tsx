/**
 * Generated path tests over the cards screen's chart (the cards from home data, the virtual card's
 * image and details from the processor, a lost or stolen report that loads the cards again), replayed
 * against the real app and router. The header's language switch asks the processor's details page and
 * the card's picture again in the new language (an answer still on its way in the old one is dropped);
 * the screens are checked in the language the replay left the app in.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
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
import { shown, type Locale } from '../support/shownText.ts';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

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
  { type: 'user.reportLostStolen', cardId: physicalCard.id },
  { type: 'xstate.done.actor.lostStolen', output: { reportSent: true } },
  { type: 'xstate.done.actor.lostStolen', output: { reportSent: false } },
  { type: 'user.changeLocale' },
];
// Shortest paths: the details and the report multiply simple paths past the traversal limit; with the
// closing step they still take every transition from every state.
const run = generatePaths(manageCardsMachine, events, undefined, { shortest: true });

/**
 * The app, and what the card API answered along the path: the screen is checked against these, never
 * against the chart's own context (a chart that stores the wrong thing would be wrong with it).
 * `image` is the image address the cards should show: null until the virtual card's was answered, '' for none;
 * `details` the details page last answered; `locale` the language the header's switch left the app in.
 * The processor's addresses answered carry the language their request asked for, as the processor's do.
 */
type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  homeAnswers: number;
  home: HomeAnswer | null;
  image: string | null;
  details: string | null;
  locale: Locale;
};
/** A card's heading ("Physical card ending in 5678") in the app's language. */
const cardName = (locale: Locale, kind: 'Physical card' | 'Virtual card', lastFour: string) =>
  `${shown(locale, kind)} ${shown(locale, 'ending in {lastFour}').replace('{lastFour}', lastFour)}`;
const physicalName = (locale: Locale) => cardName(locale, 'Physical card', '5678');
const virtualName = (locale: Locale) => cardName(locale, 'Virtual card', '4821');
const cardsList = (locale: Locale) => screen.queryByRole('list', { name: shown(locale, 'Your cards') });
const slideIn = (locale: Locale, name: string) => {
  const heading = within(cardsList(locale)!).getByRole('heading', { level: 2, name });
  return heading.closest('li')!;
};
/** The language the last request to `path` asked for. */
const askedLocale = ({ cardApi }: Ctx, path: string) =>
  new URLSearchParams(cardApi.requests.filter((sent) => sent.path === path).at(-1)?.search).get('locale');
const localeOf = (url: string | null | undefined) => (url ? new URL(url).searchParams.get('locale') : null);
/** The processor's addresses, in the language asked. */
const imageUrlIn = (locale: string | null) => `${imageUrl}?locale=${locale}`;
const detailsUrlIn = (locale: string | null, token: string) => `${processorOrigin}/card-details?token=${token}&locale=${locale}`;
/** Time for an answer to reach the chart and the screen (a check that something did not happen). */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 50)));

async function closeErrorModal({ session }: Pick<Ctx, 'session'>) {
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
        start: async () => ({
          ...(await renderApp('/manage-cards?initialSlide=1', active)),
          homeAnswers: 0,
          home: null,
          image: null,
          details: null,
          locale: 'en' as Locale,
        }),
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
          'user.retry': async ({ user, locale }) => {
            await user.click(await screen.findByRole('button', { name: shown(locale, 'Try again') }));
            expect(document.activeElement, 'the focus goes on from Try again').toBe(screen.getByRole('heading', { level: 1 }));
          },
          'xstate.done.actor.getCardImageUrl': async (ctx, event) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
            const output = event.output as { statusCode: number; url?: string };
            const url = output.url ? imageUrlIn(askedLocale(ctx, imagePath(virtualCard.id))) : output.url;
            ctx.cardApi.answer(imagePath(virtualCard.id), { ...output, url });
            ctx.image = output.statusCode === 0 ? (url ?? '') : '';
          },
          // Quiet: no image is a plain card face, never the error modal.
          'xstate.error.actor.getCardImageUrl': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
            ctx.cardApi.fail(imagePath(virtualCard.id));
            ctx.image = '';
          },
          'user.showDetails': async ({ user, locale }) => {
            const slide = slideIn(locale, virtualName(locale));
            const show =
              within(slide).queryByRole('button', { name: shown(locale, 'Show card details') }) ??
              within(slide).getByRole('button', { name: shown(locale, 'Try again') });
            await user.click(show);
          },
          'user.hideDetails': async ({ user, locale }) =>
            user.click(within(slideIn(locale, virtualName(locale))).getByRole('button', { name: shown(locale, 'Hide card details') })),
          'xstate.done.actor.getCardDetailsUrl': async (ctx, event) => {
            const output = event.output as { statusCode: number; url?: string };
            await waitFor(() => expect(ctx.cardApi.isWaiting(detailsPath(virtualCard.id))).toBe(true));
            // The processor's page in the app's language (after a switch too).
            expect(askedLocale(ctx, detailsPath(virtualCard.id))).toBe(ctx.locale);
            const asked = ctx.cardApi.requests.filter((sent) => sent.path === detailsPath(virtualCard.id)).length;
            const url = output.url ? detailsUrlIn(ctx.locale, `tok-${asked}`) : undefined;
            if (url) ctx.details = url;
            ctx.cardApi.answer(detailsPath(virtualCard.id), url ? { ...output, url } : output, output.statusCode === 0 ? 200 : 403);
          },
          'xstate.error.actor.getCardDetailsUrl': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(detailsPath(virtualCard.id))).toBe(true));
            ctx.cardApi.fail(detailsPath(virtualCard.id));
            await closeErrorModal(ctx);
          },
          'user.reportLostStolen': async ({ user, locale }) =>
            user.click(within(slideIn(locale, physicalName(locale))).getByRole('button', { name: shown(locale, 'Report lost or stolen') })),
          // The report runs to its end through its own screens (machines/cards/lostStolen.ts).
          'xstate.done.actor.lostStolen': async ({ user, cardApi, locale }, event) => {
            if ((event.output as { reportSent: boolean }).reportSent) {
              await user.click(screen.getByRole('button', { name: shown(locale, "It's lost") }));
              await user.click(screen.getByRole('button', { name: shown(locale, 'Block my card and send a new one') }));
              await waitFor(() => expect(cardApi.isWaiting(reportPath)).toBe(true));
              cardApi.answer(reportPath, { statusCode: 0, card: lostCard, replacement: pendingCard });
              await user.click(await screen.findByRole('button', { name: shown(locale, 'Back to your cards') }));
            } else {
              await user.click(screen.getByRole('button', { name: shown(locale, 'Cancel') }));
            }
          },
          // The header's language switch (it offers the other language in its own words); the catalogue
          // follows, as src/app/main.tsx has it. A processor address still on its way in the old language
          // is answered after all: it must be dropped, never shown.
          'user.changeLocale': async (ctx) => {
            const paths = [imagePath(virtualCard.id), detailsPath(virtualCard.id)];
            const sent = (path: string) => ctx.cardApi.requests.filter((request) => request.path === path).length;
            const inFlight = paths.filter((path) => ctx.cardApi.isWaiting(path)).map((path) => ({ path, before: sent(path) }));
            const was = ctx.locale;
            ctx.locale = was === 'en' ? 'es' : 'en';
            await ctx.user.click(screen.getByRole('button', { name: ctx.locale === 'es' ? 'Español' : 'English' }));
            await act(() => activateLocale(ctx.locale));
            for (const { path, before } of inFlight) {
              // Asked again in the new language; the oldest waiting is the old language's.
              await waitFor(() => expect(sent(path)).toBe(before + 1));
              ctx.cardApi.answer(path, { statusCode: 0, url: path === paths[0] ? imageUrlIn(was) : detailsUrlIn(was, 'tok-old') });
            }
            if (inFlight.length > 0) await settle();
          },
        },
        states: [
          {
            when: (s) => s.matches('loadingCards') || s.matches('loadingImage'),
            then: async (ctx, s) => {
              const { cardApi, locale } = ctx;
              expect(await screen.findByRole('status', { name: shown(locale, 'Loading your cards') })).toBeTruthy();
              expect(screen.getByRole('heading', { level: 1, name: shown(locale, 'Manage cards') })).toBeTruthy();
              expect(cardsList(locale)).toBeNull();
              const waitingFor = s.matches('loadingCards') ? homePath : imagePath(virtualCard.id);
              await waitFor(() => expect(cardApi.isWaiting(waitingFor)).toBe(true));
              // The picture asked in the app's language (after a switch too).
              if (waitingFor !== homePath) expect(askedLocale(ctx, waitingFor)).toBe(locale);
            },
          },
          {
            when: (s) => s.matches('failed'),
            then: async ({ locale }) => {
              const said = `${shown(locale, "We couldn't load your cards.")} ${shown(locale, 'Please try again.')}${shown(locale, 'Try again')}`;
              await waitFor(() => expect(alertText()).toBe(said));
              expect(cardsList(locale)).toBeNull();
            },
          },
          {
            when: (s) => s.matches({ ready: { cards: 'reporting' } }),
            then: async ({ locale }) => {
              expect(await screen.findByRole('heading', { level: 1, name: shown(locale, 'Report a lost or stolen card') })).toBeTruthy();
              // The list waits, hidden, on the card it was on.
              expect(screen.queryByRole('heading', { level: 1, name: shown(locale, 'Manage cards') })).toBeNull();
            },
          },
          {
            when: (s) => s.matches('ready'),
            then: async (ctx, s) => {
              const { locale } = ctx;
              const t = (source: string) => shown(locale, source);
              await waitFor(() => expect(cardsList(locale)).not.toBeNull());
              // Spec §2: the image address looked up before the cards show; '' when there is none.
              expect(ctx.image).not.toBeNull();
              const physical = slideIn(locale, physicalName(locale));
              // No list a screen reader announces as "list, 0 items" (the virtual card has no actions).
              for (const list of within(cardsList(locale)!).queryAllByRole('list')) expect(within(list).queryAllByRole('listitem').length).toBeGreaterThan(0);
              expect(within(physical).getByText(t('Active'))).toBeTruthy();
              expect(within(physical).getByRole('switch', { name: `${t('Lock card')} ${t('ending in {lastFour}').replace('{lastFour}', '5678')}` })).toBeTruthy();
              expect(within(physical).getByRole('link', { name: t('Set PIN') }).getAttribute('href')).toMatch(/^\/reset-pin\?/);
              expect(within(physical).getByRole('link', { name: t('Replace a damaged card') }).getAttribute('href')).toBe(`/replacement-card?cardId=${physicalCard.id}`);
              if (!ctx.home?.virtualCard) {
                expect(screen.queryByRole('heading', { level: 2, name: virtualName(locale) })).toBeNull();
                expect(screen.queryByRole('button', { name: t('Show card details') })).toBeNull();
                return;
              }
              // Opens on the card initialSlide names: the second, the physical card.
              expect(screen.getByText(t('Card {position} of {count}').replace('{position}', '2').replace('{count}', '2'))).toBeTruthy();
              expect(physical.getAttribute('aria-current')).toBe('true');
              const virtual = slideIn(locale, virtualName(locale));
              const image = virtual.querySelector('img');
              if (ctx.image) expect(image?.getAttribute('src')).toBe(ctx.image);
              else {
                expect(image).toBeNull();
                expect(virtual.querySelector('.card-face')?.textContent).toContain('•••• 4821');
              }
              if (s.matches({ ready: { image: 'reloading' } })) {
                // The picture in the new language is asked for; the one shown stays until it comes.
                await waitFor(() => expect(ctx.cardApi.isWaiting(imagePath(virtualCard.id))).toBe(true));
                expect(askedLocale(ctx, imagePath(virtualCard.id))).toBe(locale);
              } else if (ctx.image) {
                // The picture's words are in the app's language.
                expect(localeOf(ctx.image)).toBe(locale);
              }
              expect(within(virtual).queryByRole('link', { name: t('Set PIN') })).toBeNull();
              expect(within(virtual).queryByRole('button', { name: t('Report lost or stolen') })).toBeNull();
              const frame = within(virtual).queryByTitle(t("Your virtual card's number, expiry date and CVV"));
              if (s.matches({ ready: { cards: 'showingDetails' } })) {
                // The page last answered, in the app's language.
                expect(frame?.getAttribute('src')).toBe(ctx.details);
                expect(localeOf(frame?.getAttribute('src'))).toBe(locale);
                expect(within(virtual).getByRole('button', { name: t('Hide card details') })).toBeTruthy();
                // The button that asked is gone: the focus goes to the details. Asked again after a language
                // switch, the focus stays on the switch, where the cardholder left it.
                const onSwitch = document.activeElement?.closest('nav') === screen.getByRole('navigation', { name: t('Account and language') });
                if (!onSwitch) await waitFor(() => expect(document.activeElement).toBe(frame));
              } else expect(frame).toBeNull();
              if (s.matches({ ready: { cards: 'loadingDetails' } })) {
                // Unavailable, not disabled: a keyboard user's focus stays on it while the call runs.
                const opening = within(virtual).getByRole('button', { name: t('Opening your card details…') });
                expect(opening.getAttribute('aria-disabled')).toBe('true');
                expect((opening as HTMLButtonElement).disabled).toBe(false);
                await waitFor(() => expect(ctx.cardApi.isWaiting(detailsPath(virtualCard.id))).toBe(true));
                expect(askedLocale(ctx, detailsPath(virtualCard.id))).toBe(locale);
              }
              if (s.matches({ ready: { cards: 'detailsFailed' } })) {
                const said = `${t("We couldn't show your card details.")} ${t('Please try again.')}${t('Try again')}`;
                await waitFor(() => expect(alertText().trim()).toBe(said));
              } else expect(alertText().trim()).toBe('');
              if (s.matches({ ready: { cards: 'browsing' } })) expect(within(virtual).getByRole('button', { name: t('Show card details') })).toBeTruthy();
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
    expect(slideOf(virtualName('en')).getAttribute('aria-current')).toBe('true');
    // An image that is not on the processor's origin is not loaded: a plain card face instead.
    expect(slideOf(virtualName('en')).querySelector('img')).toBeNull();
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
