/**
 * The charts the /transactions screens share, made for one visit: the activity chart and the home
 * chart (its balance at the top), with the feature's calls and the last-known copy for offline use.
 * Plain actors, started here and stopped by the layout when the screens are left; loaded with the
 * first of the screens.
 */
import { createActor, fromPromise } from 'xstate';
import { activityMachine } from '../../../machines/activity/activity.ts';
import { homeMachine } from '../../../machines/home/home.ts';
import type { AppContext } from '../../app/context.ts';
import { sessionLastKnown } from '../../shared/offline/lastKnown.ts';
import { activityCalls } from './activityCalls.ts';
import type { ActivityScreens } from './activityScreens.ts';

export function activityScreensOf({ api, session, offlineStorage }: AppContext): ActivityScreens & { stop: () => void } {
  const calls = activityCalls(api);
  const { lastKnown, owner } = sessionLastKnown(offlineStorage, session);
  const kept = { home: lastKnown.home.read(owner), activity: lastKnown.activity.read(owner) };
  const home = createActor(
    homeMachine.provide({
      // With a last-known copy to show, a missing answer is said on the screen, not in the error modal.
      actors: { getHome: fromPromise(() => api.getHome({ suppressErrorModal: kept.home !== null })) },
      actions: { keepLastKnown: (_, answer) => lastKnown.home.keep(owner, answer) },
    }),
    { input: { lastKnown: kept.home } },
  );
  const activity = createActor(
    activityMachine.provide({
      actors: {
        getTransactions: fromPromise(({ input }) =>
          calls.getTransactions(input.cursor, { suppressErrorModal: input.cursor === null && kept.activity !== null }),
        ),
      },
      actions: {
        refreshHome: () => home.send({ type: 'user.refresh' }),
        keepLastKnown: (_, page) => lastKnown.activity.keep(owner, page),
      },
    }),
    { input: { lastKnown: kept.activity } },
  );
  home.start();
  activity.start();
  return {
    home,
    activity,
    calls,
    stop: () => {
      activity.stop();
      home.stop();
    },
  };
}
