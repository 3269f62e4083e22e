/**
 * A text that fails to send is logged without the phone, the text or its code: the SMS outbox's
 * insert fails with them among its parameters. After the answer (the password reset's code) the whole
 * query error, parameters included, was logged; inside a request (registration's code) the error
 * handler keeps only the SQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLog, demoCardholder, post, startTestApp, type TestApp, withoutRunDetails } from '../helpers.ts';

const { lines: logLines, stream: logStream } = capturedLog();

let t: TestApp;
const applicantPhone = '5592937461';
let answeredInRequest = 0;

beforeAll(async () => {
  t = await startTestApp({ env: { LOG_LEVEL: 'trace' }, logStream });
  // The gateway's store refuses every text: the task that texts the reset code fails on its query.
  await t.db.execute(sql`alter table sandbox_sms_outbox add constraint no_texts_now check (false) not valid`);
  await post(t.app, '/reset-password', { email: demoCardholder.email });
  await t.app.afterAnswer.settled();
  // The same failure inside a request (registration's code): a 500, through the error handler.
  answeredInRequest = (await post(t.app, '/request-verification', { phone: applicantPhone })).status;
});
afterAll(async () => {
  await t?.close();
});

describe('a failed text after the answer', () => {
  it('is logged (control)', () => {
    expect(withoutRunDetails(logLines)).toContain('texting a password reset code failed');
    expect(answeredInRequest).toBe(500);
    expect(withoutRunDetails(logLines)).toContain('unexpected error');
  });

  it('is logged without the phone, the text or the code', () => {
    const logs = withoutRunDetails(logLines);
    const phoneDigits = demoCardholder.phone.replace(/\D/g, '');
    expect(logs).not.toContain(phoneDigits);
    expect(logs).not.toContain(applicantPhone);
    expect(logs).not.toMatch(/password reset code is/i);
    expect(logs).not.toMatch(/\b\d{6}\b/);
  });
});
