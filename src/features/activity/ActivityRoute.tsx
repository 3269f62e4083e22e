/**
 * The /transactions layout route's screen: the list or the detail (the router's outlet) with the
 * charts they share (activityScreensOf.ts, loaded with the first of them), which live as long as these
 * screens: coming back from a detail finds the same rows. The charts' code loads here without React
 * in it: a lazy module importing React's hooks makes the bundler split React out of the app's entry (a
 * larger first load on every screen).
 */
import { Outlet } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useServices } from '../../app/services.tsx';
import { Spinner } from '../../shared/components/Spinner.tsx';
import { ActivityContext, type ActivityScreens } from './activityScreens.ts';

const loadScreens = () => import('./activityScreensOf.ts');

function ActivityScreensRoute() {
  const services = useServices();
  const [screens, setScreens] = useState<ActivityScreens | null>(null);
  useEffect(() => {
    let left = false;
    let stop = () => {};
    void loadScreens().then(({ activityScreensOf }) => {
      if (left) return;
      const made = activityScreensOf(services);
      stop = made.stop;
      setScreens(made);
    });
    return () => {
      left = true;
      stop();
    };
  }, [services]);
  return screens ? (
    <ActivityContext.Provider value={screens}>
      <Outlet />
    </ActivityContext.Provider>
  ) : (
    <Spinner />
  );
}

/** As the router's lazy views: `preload` loads the charts' code ahead (the flow tests do). */
export const ActivityRoute = Object.assign(ActivityScreensRoute, { preload: () => loadScreens().then(() => undefined) });
