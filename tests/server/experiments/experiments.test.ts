/** GET /experiments: the remote experiment config, set through the sandbox controls. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentFlags } from '../../../contract/experiments/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { experimentConfigs } from '../../../server/db/schema/index.ts';
import { startTestApp, type TestApp } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(experimentConfigs);
});

const everyoneFlags: ExperimentFlags = { virtualCards: true, directDeposit: false, cashLoadMap: true, showNewDebitDetails: false };
const internalFlags: ExperimentFlags = { virtualCards: true, directDeposit: true, cashLoadMap: true, showNewDebitDetails: true };

function experiments(query = '') {
  return t.app.inject({ method: 'GET', url: `/api/v1/experiments${query}` });
}

async function setFlags(audience: 'everyone' | 'internal', flags: ExperimentFlags) {
  await t.db.insert(experimentConfigs).values({ audience, flags });
}

describe('GET /api/v1/experiments', () => {
  it('answers 404 NOT_ALLOWED when no config exists (the app then uses its defaults)', async () => {
    const response = await experiments('?isInternal=false');

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it('answers everyone\'s flags without a token', async () => {
    await setFlags('everyone', everyoneFlags);

    const response = await experiments('?isInternal=false');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS, flags: everyoneFlags });
  });

  it('treats a missing isInternal as false', async () => {
    await setFlags('everyone', everyoneFlags);
    await setFlags('internal', internalFlags);

    expect((await experiments()).json()).toEqual({ statusCode: StatusCode.SUCCESS, flags: everyoneFlags });
  });

  it('answers the internal flags to internal users when they exist', async () => {
    await setFlags('everyone', everyoneFlags);
    await setFlags('internal', internalFlags);

    expect((await experiments('?isInternal=true')).json()).toEqual({ statusCode: StatusCode.SUCCESS, flags: internalFlags });
    expect((await experiments('?isInternal=false')).json()).toEqual({ statusCode: StatusCode.SUCCESS, flags: everyoneFlags });
  });

  it('answers everyone\'s flags to internal users when there is no internal config', async () => {
    await setFlags('everyone', everyoneFlags);

    expect((await experiments('?isInternal=true')).json()).toEqual({ statusCode: StatusCode.SUCCESS, flags: everyoneFlags });
  });

  it('never answers the internal flags to everyone else', async () => {
    await setFlags('internal', internalFlags);

    const response = await experiments('?isInternal=false');

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
  });

  it.each(['?isInternal=yes', '?isInternal=1', '?isInternal=TRUE', '?isInternal=', '?isInternal=true&isInternal=false', '?internal=true'])(
    'rejects the query %s with 400 INVALID_PARAMETERS',
    async (query) => {
      await setFlags('everyone', everyoneFlags);

      const response = await experiments(query);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    },
  );
});
