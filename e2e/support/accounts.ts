/**
 * Fresh cardholders for tests that change a cardholder's secrets (password, unlock-code lockout), so
 * they never disturb the seeded ones other specs use in parallel: opened through the real calls
 * (texted code from the sandbox outbox, /register), then given a password through the reset calls.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { newApplicant, textedCode, type Applicant } from '../pages/identity/RegisterPage.ts';
import type { Tokens } from './api.ts';

const json = (data: unknown) => ({ data, headers: { 'content-type': 'application/json' } });

export async function openAccountViaApi(request: APIRequestContext): Promise<{ applicant: Applicant; tokens: Tokens }> {
  const applicant = newApplicant();
  const phone = applicant.phone;
  expect((await request.post('/api/v1/request-verification', json({ phone }))).status()).toBe(200);
  const code = await textedCode(request, phone);
  const verified = await (await request.post('/api/v1/verify-phone', json({ phone, code }))).json();
  expect(verified.statusCode).toBe(0);
  const answer = await request.post(
    '/api/v1/register',
    json({
      firstName: applicant.firstName,
      middleName: '',
      lastName: applicant.lastName,
      dob: applicant.dob,
      ssn: applicant.ssn.replace(/-/g, ''),
      email: applicant.email,
      phone,
      mfaToken: verified.mfaToken,
      addressLegal: { street1: applicant.street1, street2: '', city: applicant.city, state: applicant.state, zip: applicant.zip },
      unlockCode: applicant.unlockCode,
      legal: { esign: 'agreed', terms: 'agreed', cardholder3: 'agreed' },
      providersUuid: null,
      profile: null,
    }),
  );
  expect(answer.status(), 'the account opens').toBe(200);
  const body = await answer.json();
  return { applicant, tokens: { access: body.access, refresh: body.refresh, isInternal: body.isInternal } };
}

/** The password reset's calls: a code texted to the phone on file, its mfaToken, then /change-password. */
export async function setPasswordViaApi(request: APIRequestContext, applicant: Applicant, password: string): Promise<void> {
  expect((await request.post('/api/v1/reset-password', json({ email: applicant.email }))).status(), 'a reset code is texted').toBe(200);
  const verified = await request.post('/api/v1/verify/reset-code', json({ email: applicant.email, code: await textedCode(request, applicant.phone) }));
  expect(verified.status(), 'the reset code is right').toBe(200);
  const { mfaToken } = (await verified.json()) as { mfaToken: string };
  const answer = await request.post('/api/v1/change-password', json({ email: applicant.email, ssn: applicant.ssn.replace(/-/g, ''), password, mfaToken }));
  expect(answer.status(), 'the password is set').toBe(200);
}

/** POST /sign-in for a cardholder without a texted code: a fresh session. */
export async function signInViaApiAs(request: APIRequestContext, email: string, password: string): Promise<Tokens> {
  const answer = await request.post('/api/v1/sign-in', json({ email, password }));
  expect(answer.status(), 'API sign-in succeeds').toBe(200);
  const body = await answer.json();
  return { access: body.access, refresh: body.refresh, isInternal: body.isInternal };
}
