/**
 * The /transactions screens (spec §2): the list and a transaction's detail share one activity chart
 * and one home chart, which live as long as these screens. Coming back from a detail finds the same
 * rows, so the list keeps its scroll position; the balance at the top comes from the home data, which
 * refreshing the list refreshes too.
 */
import { Outlet } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { createContext, useContext, useState } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { activityMachine } from '../../../machines/activity/activity.ts';
import { homeMachine } from '../../../machines/home/home.ts';
import { useServices } from '../../app/services.tsx';
import { ownerOf } from '../../shared/offline/lastKnown.ts';
import { activityCalls, type ActivityCalls } from './activityCalls.ts';

type ActivityScreens = {
  activity: ActorRefFrom<typeof activityMachine>;
  home: ActorRefFrom<typeof homeMachine>;
  calls: ActivityCalls;
};

const ActivityContext = createContext<ActivityScreens | null>(null);

export function useActivityScreens(): ActivityScreens {
  const screens = useContext(ActivityContext);
  if (!screens) throw new Error('useActivityScreens needs the /transactions layout');
  return screens;
}

export function ActivityLayout() {
  const { api, session, lastKnown } = useServices();
  const [calls] = useState(() => activityCalls(api));
  const [owner] = useState(() => ownerOf(session.getSnapshot().context.accessToken));
  const [kept] = useState(() => ({ home: lastKnown.home.read(owner), activity: lastKnown.activity.read(owner) }));
  const home = useActorRef(
    homeMachine.provide({
      // With a last-known copy to show, a missing answer is said on the screen, not in the error modal.
      actors: { getHome: fromPromise(() => api.getHome({ suppressErrorModal: kept.home !== null })) },
      actions: { keepLastKnown: (_, answer) => lastKnown.home.keep(owner, answer) },
    }),
    { input: { lastKnown: kept.home } },
  );
  const activity = useActorRef(
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
  const [screens] = useState<ActivityScreens>(() => ({ activity, home, calls }));
  return (
    <ActivityContext.Provider value={screens}>
      <Outlet />
    </ActivityContext.Provider>
  );
}
