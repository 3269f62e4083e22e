/** The signed-in cardholder's account calls (spec §7): the user record and a new unlock code. */
import { route } from '../shared/route.ts';
import type { SetUnlockCodeAnswer, SetUnlockCodeRequest, UserAnswer } from './types.ts';

export const accountRoutes = {
  getUser: route<null, UserAnswer>({
    name: 'getUser',
    method: 'GET',
    path: '/user',
    caller: 'accessToken',
    answers: { 200: [0], 401: [103, 104], 404: [3] },
  }),
  setUnlockCode: route<SetUnlockCodeRequest, SetUnlockCodeAnswer>({
    name: 'setUnlockCode',
    method: 'POST',
    path: '/set-unlock-code',
    caller: 'accessToken',
    answers: { 200: [0], 400: [2, 4], 401: [101, 103, 104] },
  }),
};
