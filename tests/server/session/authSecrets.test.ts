/**
 * No secret in the logs: a whole run of sign-in with a texted code (wrong code first), SSN checks
 * (wrong, then right) for a password reset and an unlock-code reset, a password change and an
 * unlock-code reset leaves no password, code, SSN or token in the trace-level server logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { capturedLog, demoCardholder, lastCode, mfaCardholder, post, resetMfaToken, signInWith, startTestApp, type TestApp, withoutRunDetails } from '../helpers.ts';

const { lines: logLines, stream: logStream } = capturedLog();

let t: TestApp;
const secrets: string[] = [];
const newPassword = 'Jacaranda-2031';
const newUnlockCode = '7319';

beforeAll(async () => {
  t = await startTestApp({ env: { LOG_LEVEL: 'trace' }, logStream });
  const credentials = { email: mfaCardholder.email, password: mfaCardholder.password };

  expect((await signInWith(t.app, { ...credentials, password: 'Wrong-password-9' })).status).toBe(401);
  expect((await signInWith(t.app, credentials)).body.statusCode).toBe(StatusCode.MFA_REQUIRED);
  const code = await lastCode(t.app, mfaCardholder.phone);
  const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
  await signInWith(t.app, { ...credentials, code: wrongCode });
  const session = await signInWith(t.app, { ...credentials, code });
  expect(session.status).toBe(200);

  // Password reset: a wrong SSN, the right one, the change.
  const mfaToken = await resetMfaToken(t.app, mfaCardholder);
  await post(t.app, '/verify/ssn', { email: mfaCardholder.email, ssn: demoCardholder.ssn, mfaToken });
  const verified = await post<{ ssnToken: string }>(t.app, '/verify/ssn', { email: mfaCardholder.email, ssn: mfaCardholder.ssn, mfaToken });
  expect(verified.status).toBe(200);
  expect((await post(t.app, '/change-password', { email: mfaCardholder.email, ssn: mfaCardholder.ssn, password: newPassword, mfaToken })).status).toBe(200);

  // Unlock-code reset with a session of the new password.
  await signInWith(t.app, { email: mfaCardholder.email, password: newPassword });
  const code2 = await lastCode(t.app, mfaCardholder.phone);
  const second = await signInWith(t.app, { email: mfaCardholder.email, password: newPassword, code: code2 });
  expect(second.status).toBe(200);
  await post(t.app, '/verify/ssn/logged-in-refresh-token', { ssn: demoCardholder.ssn }, second.body.refresh);
  const loggedIn = await post<{ ssnToken: string }>(t.app, '/verify/ssn/logged-in-refresh-token', { ssn: mfaCardholder.ssn }, second.body.refresh);
  expect(loggedIn.status).toBe(200);
  const reset = await post<{ access: string; refresh: string }>(
    t.app,
    '/reset-unlock-code',
    { ssnToken: loggedIn.body.ssnToken, unlockCode: newUnlockCode },
    second.body.refresh,
  );
  expect(reset.status).toBe(200);

  secrets.push(
    mfaCardholder.password,
    newPassword,
    'Wrong-password-9',
    code,
    wrongCode,
    code2,
    newUnlockCode,
    mfaCardholder.ssn,
    mfaCardholder.ssn.replace(/-/g, ''),
    demoCardholder.ssn,
    demoCardholder.ssn.replace(/-/g, ''),
    verified.body.ssnToken,
    loggedIn.body.ssnToken,
    session.body.access!,
    session.body.refresh!,
    second.body.access!,
    second.body.refresh!,
    reset.body.access,
    reset.body.refresh,
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('the server logs of sign-in with a code, SSN checks, password change and unlock-code reset', () => {
  it('were captured for every call (control)', () => {
    const logs = withoutRunDetails(logLines);
    for (const url of ['/api/v1/sign-in', '/api/v1/verify/ssn', '/api/v1/change-password', '/api/v1/verify/ssn/logged-in-refresh-token', '/api/v1/reset-unlock-code']) {
      expect(logs).toContain(url);
    }
    expect(logs).toContain('password changed by reset');
    expect(logs).toContain('unlock code reset');
  });

  it('contain no password, code, SSN or token', () => {
    const logs = withoutRunDetails(logLines);
    expect(secrets.every((secret) => typeof secret === 'string' && secret.length >= 4)).toBe(true);
    for (const secret of secrets) expect(logs).not.toMatch(new RegExp(`\\b${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
    expect(logs).not.toMatch(/"(ssn|code|ssnToken|unlockCode|password)"\s*:/);
  });
});
