/** Direct calls to the card API and sandbox, used to set up state and to compute expected values. */
import { expect, type APIRequestContext } from '@playwright/test';
import type { HomeAnswer } from '../../contract/home/types.ts';
import type { SignInAnswer } from '../../contract/session/types.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';

/** The seeded demo cardholder (server/seed.ts). */
export const demo = {
  email: 'demo@providers.test',
  password: 'Providers2026',
  unlockCode: '2580',
} as const;

export type Tokens = { access: string; refresh: string; isInternal: boolean };

/** Headers the app sends with every call (any UUIDs will do). */
function deviceHeaders() {
  return { Fingerprint: crypto.randomUUID(), 'Device-UUID': crypto.randomUUID() };
}

/** POST /api/v1/sign-in as the demo cardholder, or another seeded one (same password). */
export async function signInViaApi(request: APIRequestContext, email: string = demo.email): Promise<Tokens> {
  const response = await request.post('/api/v1/sign-in', {
    headers: deviceHeaders(),
    data: { email, password: demo.password },
  });
  expect(response.status(), 'API sign-in succeeds').toBe(200);
  const answer = (await response.json()) as SignInAnswer;
  expect(answer.statusCode).toBe(0);
  return { access: answer.access!, refresh: answer.refresh!, isInternal: answer.isInternal ?? false };
}

/** POST /sandbox/sessions: a session (the demo cardholder's by default) whose access token lives `accessTtlSeconds`. */
export async function sandboxSession(request: APIRequestContext, accessTtlSeconds: number, email: string = demo.email): Promise<Tokens> {
  const response = await request.post('/sandbox/sessions', { data: { email, accessTtlSeconds } });
  expect(response.status(), 'sandbox session is created').toBe(200);
  const answer = (await response.json()) as SignInAnswer;
  return { access: answer.access!, refresh: answer.refresh!, isInternal: answer.isInternal ?? false };
}

/** GET /api/v1/home with a bearer access token; answers the body whatever its statusCode. */
export async function getHome(request: APIRequestContext, access: string): Promise<HomeAnswer> {
  const response = await request.get('/api/v1/home', {
    headers: { ...deviceHeaders(), Authorization: `Bearer ${access}` },
  });
  return (await response.json()) as HomeAnswer;
}

/** The demo cardholder's home data, straight from the API. */
export async function demoHome(request: APIRequestContext): Promise<HomeAnswer> {
  const { access } = await signInViaApi(request);
  const home = await getHome(request, access);
  expect(home.statusCode, 'GET /home succeeds').toBe(0);
  return home;
}

/**
 * Ends the session's access token now (POST /sandbox/sessions/expire), as 15 minutes without a call
 * would: GET /home then answers REFRESH_REQUIRED. Expiry is a step of the test, never a race with a clock.
 */
export async function expireAccessToken(request: APIRequestContext, access: string): Promise<void> {
  const response = await request.post('/sandbox/sessions/expire', { data: { access } });
  expect(response.status(), 'the sandbox ends the access token').toBe(200);
  expect((await getHome(request, access)).statusCode, 'the access token has expired').toBe(StatusCode.REFRESH_REQUIRED);
}
