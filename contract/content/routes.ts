/** The content API (spec §7 content GETs): documents by key under /cms. */
import type { StatusAnswer } from '../shared/answers.ts';
import { contentApiBase, route } from '../shared/route.ts';

export type ContentAnswer = StatusAnswer & { data: unknown };

export const contentRoutes = {
  getContent: route<null, ContentAnswer>({
    name: 'getContent',
    method: 'GET',
    base: contentApiBase,
    path: '/config/{key}',
    caller: 'anonymous',
    answers: { 200: [0], 404: [3] },
  }),
};
