/** The remote experiment config (spec §6, §7): public, so the app can gate features before sign-in. */
import { route } from '../shared/route.ts';
import type { ExperimentsAnswer, ExperimentsQuery } from './types.ts';

export const experimentsRoutes = {
  getExperiments: route<ExperimentsQuery, ExperimentsAnswer>({
    name: 'getExperiments',
    method: 'GET',
    path: '/experiments',
    caller: 'anonymous',
    answers: { 200: [0], 400: [2], 404: [3] },
  }),
};
