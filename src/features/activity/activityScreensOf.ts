/**
 * The charts the /transactions screens share, made for one visit: the activity chart and the home
 * chart (its balance at the top), with the feature's calls and the last-known copy for offline use.
 * Plain actors, started here and stopped by the layout when the screens are left; loaded with the
 * first of the screens.
 */
import { createActor, fromPromise } from 'xstate';
import { activityMachine } from '../../../machines/activity/activity.ts';
import { homeMachine } from '../../../machines/home/home.ts';
import type { LastKnown } from '../../../machines/shared/lastKnown.ts';
import type { TransactionsPage } from '../../../contract/activity/types.ts';
import type { AppContext } from '../../app/context.ts';
import { sessionLastKnown } from '../../shared/offline/lastKnown.ts';
import { activityCalls } from './activityCalls.ts';
import type { ActivityScreens } from './activityScreens.ts';

export function activityScreensOf({ api, session, offlineStorage, slowAnswerMs }: AppContext): ActivityScreens & { stop: () => void } {
  const calls = activityCalls(api);
  const { lastKnown, owner } = sessionLastKnown(offlineStorage, session);
  const kept = { home: lastKnown.home.read(owner), activity: lastKnown.activity.read(owner) };
  // Activity never fetched on this phone (offline since sign-in, say): home's recent rows are the
  // newest activity known, as of when home fetched them.
  const keptActivity: LastKnown<TransactionsPage> | null =
    kept.activity ?? (kept.home && { data: { statusCode: kept.home.data.statusCode, transactions: kept.home.data.accountOverview.transactions, nextCursor: null }, fetchedAt: kept.home.fetchedAt });
  const home = createActor(
    homeMachine.provide({
      actors: { getHome: fromPromise(({ input }) => api.getHome({ suppressErrorModal: input.quiet })) },
      actions: { keepLastKnown: (_, answer) => lastKnown.home.keep(owner, answer) },
      delays: { slowAnswer: slowAnswerMs },
    }),
    { input: { lastKnown: kept.home } },
  );
  const activity = createActor(
    activityMachine.provide({
      actors: {
        getTransactions: fromPromise(({ input }) =>
          calls.getTransactions(input.cursor, { suppressErrorModal: input.cursor === null && keptActivity !== null }),
        ),
      },
      actions: {
        // A balance that could not be loaded is asked for again too.
        refreshHome: () => home.send({ type: home.getSnapshot().hasTag('failed') ? 'user.retry' : 'user.refresh' }),
        keepLastKnown: (_, page) => lastKnown.activity.keep(owner, page),
      },
      delays: { slowAnswer: slowAnswerMs },
    }),
    { input: { lastKnown: keptActivity } },
  );
  home.start();
  activity.start();
  return {
    home,
    activity,
    calls,
    listPlace: { y: null, row: null },
    stop: () => {
      activity.stop();
      home.stop();
    },
  };
}
