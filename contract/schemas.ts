/** Every feature's request schemas by entry name (the server and the OpenAPI document; never the web app, which would load yup). */
import type { AnySchema } from 'yup';
import { accountSchemas } from './account/schemas.ts';
import { analyticsSchemas } from './analytics/schemas.ts';
import { contentSchemas } from './content/schemas.ts';
import { experimentsSchemas } from './experiments/schemas.ts';
import { homeSchemas } from './home/schemas.ts';
import { identitySchemas } from './identity/schemas.ts';
import { sessionSchemas } from './session/schemas.ts';

export const requestSchemas: Readonly<Record<string, AnySchema | null>> = {
  ...identitySchemas,
  ...sessionSchemas,
  ...accountSchemas,
  ...homeSchemas,
  ...experimentsSchemas,
  ...analyticsSchemas,
  ...contentSchemas,
};
