/**
 * What the /transactions screens share (activityScreensOf.ts makes them, ActivityRoute.tsx holds them): the activity and home charts and
 * the feature's calls. Apart from the layout so the views can reach it without importing the layout's
 * lazy module (which would make the bundler split the app's entry).
 */
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { activityMachine } from '../../../machines/activity/activity.ts';
import type { homeMachine } from '../../../machines/home/home.ts';
import type { ActivityCalls } from './activityCalls.ts';

export type ActivityScreens = {
  activity: ActorRefFrom<typeof activityMachine>;
  home: ActorRefFrom<typeof homeMachine>;
  calls: ActivityCalls;
  /**
   * Where the list was when a row was opened (null before): its scroll, and the row's link. The list
   * opened again from the detail goes back there, the keyboard's focus on that row.
   */
  listPlace: { y: number | null; row: string | null };
};

export const ActivityContext = createContext<ActivityScreens | null>(null);

export function useActivityScreens(): ActivityScreens {
  const screens = useContext(ActivityContext);
  if (!screens) throw new Error('Outside /transactions');
  return screens;
}
