/** The remote experiment config (spec §6, §7): public, so the app can gate features before sign-in. */
import { object, string } from 'yup';
import { route } from '../shared/route.ts';
import type { ExperimentsAnswer, ExperimentsQuery } from './types.ts';

const experimentsQuery = object({ isInternal: string().oneOf(['true', 'false']) }).noUnknown();

export const experimentsRoutes = {
  getExperiments: route<ExperimentsQuery, ExperimentsAnswer>({
    name: 'getExperiments',
    method: 'GET',
    path: '/experiments',
    caller: 'anonymous',
    summary: "The experiment flags for internal users or everyone; 404 when no config exists.",
    request: experimentsQuery,
    answers: { 200: [0], 400: [2], 404: [3] },
  }),
};
