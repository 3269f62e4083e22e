/**
 * Secrets of registration stay secret: with the most verbose request logs captured, a whole
 * registration (code texted and answered, SSN sent, unlock code set) and a sign-in leave no SSN,
 * texted code, mfaToken, password or token in the logs; and in the database the SSN's digits are
 * nowhere and the texted code is only in the sandbox SMS outbox.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import {
  bearer,
  capturedLog,
  demoCardholder,
  demoCredentials,
  lastCode,
  newApplicant,
  register,
  requestVerification,
  signIn,
  startTestApp,
  type TestApp,
  unlock,
  verifyPhone,
  withoutRunDetails,
} from '../helpers.ts';

const { lines: logLines, stream: logStream } = capturedLog();

let t: TestApp;
const ssn = '318-42-7765';
const applicant = newApplicant({ ssn, firstName: 'Logan', lastName: 'Secretkeeper' });
let code = '';
let mfaToken = '';
let session = { access: '', refresh: '' };

beforeAll(async () => {
  t = await startTestApp({ env: { LOG_LEVEL: 'trace' }, logStream });

  await requestVerification(t.app, applicant.phone);
  code = await lastCode(t.app, applicant.phone);
  // A wrong code first, so the wrong-code path is logged too.
  await verifyPhone(t.app, applicant.phone, String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
  mfaToken = (await verifyPhone(t.app, applicant.phone, code)).json().mfaToken;
  // A refused attempt (broken rule), a taken one, and the success.
  await register(t.app, { ...applicant, mfaToken, dob: '13/45/1990' });
  await register(t.app, { ...applicant, mfaToken, ssn: demoCardholder.ssn });
  const registered = await register(t.app, { ...applicant, mfaToken });
  expect(registered.body.statusCode).toBe(StatusCode.SUCCESS);
  session = { access: registered.body.access!, refresh: registered.body.refresh! };
  await t.app.inject({ method: 'POST', url: '/api/v1/set-unlock-code', headers: bearer(session.access), payload: { unlockCode: '8642' } });
  await unlock(t.app, session.refresh, '8642');
  await signIn(t.app);
  // The companion app's link to registration carries the applicant's details in its query.
  await t.app.inject({ method: 'GET', url: `/register?profile=${encodeURIComponent(JSON.stringify({ firstName: 'Logan', dob: '04/12/1986', street1: '2231 E Shields Ave' }))}` });
});
afterAll(async () => {
  await t?.close();
});

describe('the request logs', () => {
  it('were captured for every call (control)', () => {
    const logs = withoutRunDetails(logLines);
    for (const url of ['/api/v1/request-verification', '/api/v1/verify-phone', '/api/v1/register', '/api/v1/set-unlock-code', '/api/v1/sign-in']) {
      expect(logs).toContain(url);
    }
    expect(logs).toContain('request completed');
    expect(logs).toContain('registration refused: identity already has an account (CIP_TAKEN)');
  });

  it('never contain the SSN, in any form', () => {
    const logs = withoutRunDetails(logLines);
    for (const form of [ssn, ssn.replace(/-/g, ''), '318 42 7765', demoCardholder.ssn, demoCardholder.ssn.replace(/-/g, '')]) {
      expect(logs).not.toContain(form);
    }
  });

  it('never contain the texted code, the mfaToken, a password or a session token', () => {
    const logs = withoutRunDetails(logLines);
    expect(logs).not.toMatch(new RegExp(`\\b${code}\\b`));
    expect(logs).not.toContain(mfaToken);
    expect(logs).not.toContain(demoCredentials.password);
    expect(logs).not.toContain(session.access);
    expect(logs).not.toContain(session.refresh);
    expect(logs).not.toMatch(/"(ssn|code|mfaToken|unlockCode|password)"\s*:/);
  });

  it('log a request by its path: a query can carry personal data', () => {
    const logs = withoutRunDetails(logLines);
    expect(logs).toContain('"url":"/register"');
    for (const detail of ['Logan', '04/12/1986', '2231', 'profile']) expect(logs).not.toContain(detail);
  });
});

describe('the database', () => {
  /** PGlite and node-postgres both answer raw queries with `{ rows }`. */
  const rowsOf = async <T,>(query: ReturnType<typeof sql>) => ((await t.db.execute(query)) as unknown as { rows: T[] }).rows;

  async function everyTable(): Promise<Record<string, string>> {
    const tables = await rowsOf<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const dump: Record<string, string> = {};
    for (const { table_name: name } of tables) {
      dump[name] = JSON.stringify(await rowsOf(sql`select * from ${sql.identifier(name)}`));
    }
    return dump;
  }

  it('holds the SSN digits nowhere, in no table', async () => {
    const dump = await everyTable();
    expect(Object.keys(dump)).toEqual(expect.arrayContaining(['users', 'analytics_events', 'error_reports', 'sandbox_sms_outbox']));
    for (const [table, rows] of Object.entries(dump)) {
      expect(rows, table).not.toContain(ssn.replace(/-/g, ''));
      expect(rows, table).not.toContain(ssn);
    }
  });

  it('holds the texted code in clear only in the sandbox outbox, and the mfaToken nowhere', async () => {
    const dump = await everyTable();
    expect(dump.sandbox_sms_outbox).toContain(code);
    for (const [table, rows] of Object.entries(dump)) {
      if (table !== 'sandbox_sms_outbox') expect(rows, table).not.toMatch(new RegExp(`\\b${code}\\b`));
      expect(rows, table).not.toContain(mfaToken);
    }
  });
});
