/** Generated path tests over the home-data chart, replayed against the real app and router. */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { HomeAnswer } from '../../contract/home/types.ts';
import { homeMachine } from '../../machines/home/home.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { lastKnownStore } from '../../src/shared/offline/lastKnown.ts';
import { formatDate } from '../../src/shared/format/date.ts';
import { saveMartPurchase } from '../support/homeFixtures.ts';
import { accessTokenFor, storageWith } from '../support/lastKnown.ts';
import { active, recordingHost, renderApp } from '../support/renderApp.tsx';
import { passSlowAnswer } from '../support/replayClock.ts';
import { pressTryAgain } from '../support/tryAgain.ts';

const homePath = '/api/v1/home';
const home: HomeAnswer = {
  statusCode: 0,
  accountOverview: {
    balance: 123456,
    onHold: 0,
    cards: [{ id: 'c1', type: 'VIRTUAL', status: 'ACTIVE', frozen: false, isActive: true, isPending: false, lastFour: '4821', delivery: null, replacesCardId: null, replacedByCardId: null }],
    transactions: [saveMartPurchase],
    prn: '400012345678',
    flags: { hasFunded: true, hasFundedAnyKind: true },
    ebtRewardOwed: 0,
    ebtRewardsClaimedThisPeriod: 0,
  },
  registrationWave: null,
  pendingCard: null,
  virtualCard: { id: 'c1' },
  prn: '400012345678',
  hasFundedAnyKind: true,
};

const events = [
  // A copy: the chart's data is `home` itself only when it came as the answered early call.
  { type: 'xstate.done.actor.getHome', output: { ...home } },
  { type: 'xstate.error.actor.getHome', error: new Error('no statusCode') },
  { type: 'user.retry' },
  { type: 'user.refresh' },
  { type: 'xstate.after.slowAnswer.home.loading.waiting' },
];

// A phone with nothing kept, and one that kept the account an hour before: offline, that copy shows.
const fresh = generatePaths(homeMachine, events);
const lastKnown = { data: { ...home, accountOverview: { ...home.accountOverview, balance: 99_900 } }, fetchedAt: '2026-11-24T17:05:00Z' };
const withLastKnown = generatePaths(homeMachine, events, { lastKnown });
// The first screen's early call answered while the screen's code loaded: the account shows at once.
const answeredEarly = generatePaths(homeMachine, events, { answered: home });
const owner = 'user-1';
const sitevarsSent: unknown[] = [];
/** Whether home's loading state appeared since the early call was answered (the watcher's record). */
let loadingShown = false;
const watcher = new MutationObserver(() => {
  loadingShown ||= screen.queryByRole('status', { name: 'Loading your account' }) !== null;
});
afterEach(() => watcher.disconnect());
/**
 * The app, when the test last answered GET /home (null before any answer of this visit), and what the
 * screen should show as the replay answered it (never read from the chart's context): nothing yet, an
 * answer, or a last-known copy after a load that got no answer (the phone's, or this visit's answer).
 */
type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  answeredAt: Date | null;
  shown: 'nothing' | 'answer' | 'copy';
  answersInReplay: number;
  /** A call still unanswered that Try again replaced (after a slow answer): the server never answers it. */
  replaced: boolean;
};

describe('home chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(homeMachine, [fresh, withLastKnown, answeredEarly])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const cases = [
    ...minimalCover(homeMachine, fresh).map((path) => [`nothing kept: ${describePath(path)}`, path, 'nothing kept'] as const),
    ...minimalCover(homeMachine, withLastKnown).map((path) => [`last known kept: ${describePath(path)}`, path, 'last known'] as const),
    ...minimalCover(homeMachine, answeredEarly).map((path) => [`answered early: ${describePath(path)}`, path, 'answered early'] as const),
  ];

  it.each(cases)(
    'path %s',
    async (_name, path, start) => {
      const kept = start === 'last known';
      async function startHome(): Promise<Ctx> {
        if (kept) {
          const storage = storageWith(owner, (store) => store.home.keep(owner, lastKnown.data, new Date(lastKnown.fetchedAt)));
          return { ...(await renderApp('/home', { ...active, accessToken: accessTokenFor(owner) }, { storage })), answeredAt: null, shown: 'nothing', answersInReplay: 0, replaced: false };
        }
        if (start === 'nothing kept') return { ...(await renderApp('/home', active)), answeredAt: null, shown: 'nothing', answersInReplay: 0, replaced: false };
        // Home's guard waits for the experiment config: GET /home, asked for meanwhile, is answered first.
        sitevarsSent.length = 0;
        const { host } = recordingHost({ sendSitevars: (sitevars) => void sitevarsSent.push(sitevars) });
        const ctx = await renderApp('/home', active, { experiments: 'pending', host });
        await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
        loadingShown = false;
        watcher.observe(document.body, { childList: true, subtree: true });
        const answeredAt = new Date();
        ctx.cardApi.answer(homePath, home);
        ctx.cardApi.answer('/api/v1/experiments', { statusCode: 3 }, 404);
        return { ...ctx, answeredAt, shown: 'answer', answersInReplay: 0, replaced: false };
      }
      // The replay's own record, for the checks that choose by it (they see only the chart's state).
      let replay: Ctx | null = null;
      const answersInReplay = () => replay!.answersInReplay;
      const shown = () => replay!.shown;
      await replayPath<Ctx>(path, {
        start: async () => (replay = await startHome()),
        events: {
          'xstate.done.actor.getHome': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
            ctx.answeredAt = new Date();
            ctx.cardApi.answer(homePath, home);
            ctx.shown = 'answer';
            ctx.answersInReplay += 1;
          },
          'xstate.error.actor.getHome': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
            ctx.cardApi.fail(homePath);
            // No statusCode: the generic error modal opens and the user closes it; with a last-known copy
            // to show (kept on the phone, or this visit's answer), the screen says it instead.
            if (!kept && ctx.answeredAt === null) await ctx.user.click(await screen.findByRole('button', { name: 'OK' }));
            else ctx.shown = 'copy';
          },
          'user.retry': async (ctx) => {
            const asked = ctx.cardApi.requests.length;
            await pressTryAgain(ctx.user);
            if (!ctx.replaced) return;
            // The slow call Try again replaced is left to fail on its own: dropped here, it changes nothing.
            await waitFor(() => expect(ctx.cardApi.requests.length).toBeGreaterThan(asked));
            ctx.cardApi.drop(homePath);
            ctx.replaced = false;
          },
          'user.refresh': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Refresh' })),
          // No answer for longer than home waits: the copy shows meanwhile, with its time, and the call goes on.
          'xstate.after.slowAnswer.home.loading.waiting': async (ctx) => {
            await waitFor(() => expect(ctx.cardApi.isWaiting(homePath)).toBe(true));
            await passSlowAnswer();
            ctx.shown = 'copy';
            ctx.replaced = true;
          },
        },
        states: [
          {
            // The early call's answer, before any of the replay's own.
            when: (s) => s.matches('ready') && start === 'answered early' && answersInReplay() === 0,
            then: async ({ cardApi }) => {
              // The first render shows the account: no loading state at any time, and no second call.
              expect(await screen.findByText('$1,234.56')).toBeTruthy();
              expect(loadingShown).toBe(false);
              expect(cardApi.requests.filter((request) => request.path === homePath)).toHaveLength(1);
              expect(await screen.findByText('Purchase at Save Mart')).toBeTruthy();
              // The companion app still hears what its content may depend on.
              expect(sitevarsSent).toEqual([expect.objectContaining({ hasFundedAnyKind: true, hasActivated: false })]);
            },
          },
          {
            when: (s) => s.matches('ready') && kept,
            then: async ({ services }) => {
              expect(await screen.findByText('$1,234.56')).toBeTruthy();
              // Answered: the phone's copy and its date are gone (the balance may be the same, so wait for the notice to go).
              await waitFor(() => expect(screen.queryByText(/This is what your account showed on/)).toBeNull());
              // The fresh answer is now the copy kept for next time.
              expect(lastKnownStore(services.offlineStorage, () => owner).home.read(owner)?.data.accountOverview.balance).toBe(123456);
            },
          },
          {
            when: (s) => s.matches('loading') && shown() === 'nothing',
            then: async ({ cardApi }) => {
              expect(await screen.findByRole('status', { name: 'Loading your account' })).toBeTruthy();
              await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
            },
          },
          {
            when: (s) => s.matches('loading'),
            then: async (ctx) => {
              expect(await screen.findByRole('button', { name: 'Refreshing…' })).toBeTruthy();
              // The data already shown (this visit's answer, or the phone's copy) stays while the refresh
              // runs, and a last-known copy (or the answer shown, once the refresh is slow) says when it is from.
              expect(screen.getByTestId('balance').textContent).toBe(ctx.answeredAt !== null ? '$1,234.56' : '$999.00');
              await waitFor(() => expect(screen.queryByText(/This is what your account showed on/) !== null).toBe(ctx.shown === 'copy'));
            },
          },
          {
            when: (s) => s.matches('ready'),
            then: async () => {
              expect(await screen.findByText('$1,234.56')).toBeTruthy();
              // Answered: no earlier copy is said to be what is shown (this visit's balance showed before the
              // answer came too, so wait for the notice to go).
              await waitFor(() => expect(screen.queryByText(/This is what your account showed on/)).toBeNull());
              expect(screen.getByText('Account ending in 5678')).toBeTruthy();
              // On the app's first screen the recent activity comes just after the rest (HomeView's RecentActivity).
              expect(await screen.findByText('Purchase at Save Mart')).toBeTruthy();
              expect(screen.getByText('-$45.12')).toBeTruthy();
              // A row is a link, heard as what, when, where and how much, the sign in words (and not as "-$45.12" too).
              expect(screen.getByRole('link', { name: /^Purchase at Save Mart(?!.*-\$45\.12).*minus \$45\.12$/ })).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('lastKnown'),
            then: async ({ answeredAt }) => {
              const notice = await screen.findByText(/We couldn't get your latest account information\. This is what your account showed on /);
              expect(screen.queryByRole('dialog')).toBeNull();
              if (answeredAt === null) {
                // The copy kept on the phone, with its own time.
                expect(notice.textContent).toMatch(/showed on Nov 24, 2026 at /);
                expect(screen.getByTestId('balance').textContent).toBe('$999.00');
                return;
              }
              // This visit's answer stays, never the older copy, with the time it came.
              expect(screen.getByTestId('balance').textContent).toBe('$1,234.56');
              expect(notice.textContent).toContain(`showed on ${formatDate(answeredAt.toISOString(), 'en')} at `);
            },
          },
          {
            when: (s) => s.matches('failed'),
            then: async () => {
              expect(await screen.findByText("We couldn't load your account. Please try again.")).toBeTruthy();
            },
          },
        ],
      });
    },
  );
});

describe("home, the physical card's next step", () => {
  const physical = { ...home.accountOverview.cards[0]!, id: 'c2', type: 'PHYSICAL' as const, lastFour: '7390' };
  const onItsWay = {
    ...physical,
    status: 'SHIPPED' as const,
    isActive: false,
    isPending: true,
    lastFour: null,
    delivery: { earliest: '2026-12-08', latest: '2026-12-15', shippedOn: null, deliveredOn: null, feeCents: 500 },
  };
  const withCards = (cards: HomeAnswer['accountOverview']['cards']): HomeAnswer => ({
    ...home,
    accountOverview: { ...home.accountOverview, cards },
    pendingCard: cards.find((card) => card.isPending) ?? null,
  });

  const shipped = { ...onItsWay, delivery: { ...onItsWay.delivery, shippedOn: '2026-12-01' } };
  it.each([
    ['only a virtual card: order one', withCards(home.accountOverview.cards), { name: 'Order a physical card', href: '/order-card' }],
    ['a card ordered, not shipped yet: neither (it cannot be in hand)', withCards([...home.accountOverview.cards, onItsWay]), null],
    ['a card shipped: activate it', withCards([...home.accountOverview.cards, shipped]), { name: 'Activate your card', href: '/activate' }],
    [
      'a replacement shipped: activate it as a replacement, the old card replaced',
      withCards([...home.accountOverview.cards, { ...physical, isActive: false, replacedByCardId: 'c3' }, { ...shipped, id: 'c3', replacesCardId: 'c2' }]),
      { name: 'Activate your card', href: '/activate?isReplacement=%22true%22' },
    ],
    ['a working physical card: neither', withCards([...home.accountOverview.cards, physical]), null],
  ] as const)('%s', async (_name, answer, link) => {
    const { cardApi } = await renderApp('/home', active);
    await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
    cardApi.answer(homePath, answer);
    expect(await screen.findByText('$1,234.56')).toBeTruthy();
    for (const name of ['Order a physical card', 'Activate your card']) {
      const shown = screen.queryByRole('link', { name });
      if (link?.name === name) expect(shown?.getAttribute('href')).toBe(link.href);
      else expect(shown).toBeNull();
    }
    // A card on its way is named without a number: it has none to show yet.
    if (answer.pendingCard) expect(screen.getByText('Physical card')).toBeTruthy();
    // A card its shipped replacement stopped says so (it said Active).
    if (answer.pendingCard?.replacesCardId) expect(screen.getByText('Physical card ending in 7390').closest('li')!.textContent).toContain('Replaced');
  });
});

describe('home, EBT rewards earned', () => {
  it.each([
    ['owed: says how much, and that the app cannot claim them yet', 412, 'You have earned $4.12 in EBT rewards. You can\'t claim them in the app yet.'],
    ['none owed: says nothing about rewards', 0, null],
  ] as const)('%s', async (_name, owed, text) => {
    const { cardApi } = await renderApp('/home', active);
    await waitFor(() => expect(cardApi.isWaiting(homePath)).toBe(true));
    cardApi.answer(homePath, { ...home, accountOverview: { ...home.accountOverview, ebtRewardOwed: owed } });
    expect(await screen.findByText('$1,234.56')).toBeTruthy();
    if (text) expect(screen.getByText(text)).toBeTruthy();
    else expect(screen.queryByText(/EBT rewards/)).toBeNull();
  });
});
