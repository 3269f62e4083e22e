/** The home screen's call (spec §7 GET /home). */
import { route } from '../shared/route.ts';
import type { HomeAnswer } from './types.ts';

export const homeRoutes = {
  getHome: route<null, HomeAnswer>({
    name: 'getHome',
    method: 'GET',
    path: '/home',
    caller: 'accessToken',
    answers: { 200: [0], 401: [103, 104], 404: [3] },
  }),
};
