/** The request schemas of contract/experiments/routes.ts (the server and the OpenAPI document use them; the web app does not). */
import { object, string } from 'yup';
import type { RequestSchemas } from '../shared/route.ts';
import type { experimentsRoutes } from './routes.ts';

const experimentsQuery = object({ isInternal: string().oneOf(['true', 'false']) }).noUnknown();

export const experimentsSchemas = {
  getExperiments: experimentsQuery,
} satisfies RequestSchemas<typeof experimentsRoutes>;
