/** POST /error-reports: the sandbox's error-report intake, redacting again before it stores. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorReport } from '../../../contract/analytics/types.ts';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { errorReports } from '../../../server/db/schema/index.ts';
import { productionEnv, startTestApp, type TestApp } from '../helpers.ts';

const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

function report(overrides: Partial<ErrorReport> = {}): ErrorReport {
  return { level: 'error', message: 'Home failed to load', at: '2026-03-01T12:00:00.000Z', context: { route: '/home' }, ...overrides };
}

function sendReports(app: TestApp['app'], reports: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/v1/error-reports', headers, payload: { reports } });
}

describe('POST /api/v1/error-reports in sandbox mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.db.delete(errorReports);
  });

  const stored = () => t.db.select().from(errorReports).orderBy(errorReports.message);

  it('stores each report with its level, message, context, time and the Device-UUID', async () => {
    const response = await sendReports(
      t.app,
      [report(), report({ level: 'warning', message: 'Message from an unknown origin', context: { origin: 'https://evil.example', count: 2, embedded: true, step: null } })],
      { 'device-uuid': 'device-1234' },
    );

    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    const rows = await stored();
    expect(rows.map(({ level, message, context, deviceUuid, occurredAt }) => ({ level, message, context, deviceUuid, at: occurredAt.toISOString() }))).toEqual([
      { level: 'error', message: 'Home failed to load', context: { route: '/home' }, deviceUuid: 'device-1234', at: '2026-03-01T12:00:00.000Z' },
      {
        level: 'warning',
        message: 'Message from an unknown origin',
        context: { origin: 'https://evil.example', count: 2, embedded: true, step: null },
        deviceUuid: 'device-1234',
        at: '2026-03-01T12:00:00.000Z',
      },
    ]);
  });

  it('redacts tokens, card numbers, SSNs and email addresses the app missed, and values under sensitive keys', async () => {
    await sendReports(t.app, [
      report({
        message: `Unlock failed for maria@example.com, 123-45-6789 with card 4111-1111-1111-1111 and token ${jwt}`,
        context: { statusCode: 101, unlockCode: 2580, refreshToken: 'short', url: `/signin?next=${jwt}`, cardId: '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70' },
      }),
    ]);

    const [row] = await stored();
    expect(row!.message).toBe('Unlock failed for [redacted], [redacted] with card [redacted] and token [redacted]');
    expect(row!.context).toEqual({
      statusCode: 101,
      unlockCode: '[redacted]',
      refreshToken: '[redacted]',
      url: '/signin?next=[redacted]',
      cardId: '3f6c2a1e-5b7d-4c8e-9a10-2b3c4d5e6f70',
    });
  });

  it('accepts a batch of exactly 20 reports', async () => {
    const response = await sendReports(t.app, Array.from({ length: 20 }, (_, i) => report({ message: `failure ${i}` })));

    expect(response.statusCode).toBe(200);
    expect(await stored()).toHaveLength(20);
  });

  it.each([
    ['a batch of 21 reports', Array.from({ length: 21 }, (_, i) => report({ message: `failure ${i}` }))],
    ['a message of 501 characters', [report({ message: 'x'.repeat(501) })]],
    ['an unknown level', [report({ level: 'fatal' as ErrorReport['level'] })]],
    ['a missing message', [{ level: 'error', at: '2026-03-01T12:00:00.000Z', context: {} }]],
    ['a missing context', [{ level: 'error', message: 'x', at: '2026-03-01T12:00:00.000Z' }]],
    ['nested context', [report({ context: { request: { path: '/home' } } as unknown as ErrorReport['context'] })]],
    ['an array in the context', [report({ context: { codes: [1, 2] } as unknown as ErrorReport['context'] })]],
    ['31 context keys', [report({ context: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])) })]],
    ['an unknown key on a report', [{ ...report(), stack: 'at main.js:1' }]],
    ['reports that are not a list', report()],
  ])('rejects %s with 400 INVALID_PARAMETERS and stores nothing', async (_name, reports) => {
    const response = await sendReports(t.app, reports);

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: StatusCode.INVALID_PARAMETERS });
    expect(await stored()).toHaveLength(0);
  });
});

describe('POST /api/v1/error-reports outside sandbox mode', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: productionEnv });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('does not exist (a vendor adapter takes the reports in production) and stores nothing', async () => {
    const response = await sendReports(t.app, [report()]);

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: StatusCode.NOT_ALLOWED });
    expect(await t.db.select().from(errorReports)).toHaveLength(0);
  });
});
