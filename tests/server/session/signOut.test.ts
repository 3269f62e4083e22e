import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { bearer, homeStatus, signIn, startTestApp, type TestApp, unlock } from '../helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function signOut(token?: string) {
  return t.app.inject({ method: 'POST', url: '/api/v1/sign-out', headers: token ? bearer(token) : {} });
}

describe('POST /api/v1/sign-out', () => {
  it('answers SUCCESS when given the refresh token', async () => {
    const session = await signIn(t.app);
    const response = await signOut(session.refresh);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });

  it("ends the session's access token on the server", async () => {
    const session = await signIn(t.app);
    expect((await homeStatus(t.app, session.access)).status).toBe(200);

    await signOut(session.refresh);

    const home = await homeStatus(t.app, session.access);
    expect(home.status).toBe(401);
    expect(home.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it("ends the session's refresh token on the server", async () => {
    const session = await signIn(t.app);
    await signOut(session.refresh);

    const answer = await unlock(t.app, session.refresh);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('also ends a session that has rotated (tokens issued by an earlier unlock)', async () => {
    const session = await signIn(t.app);
    const rotated = await unlock(t.app, session.refresh);
    await signOut(rotated.body.refresh!);

    expect((await homeStatus(t.app, rotated.body.access!)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
    expect((await homeStatus(t.app, session.access)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('ends the session when given the access token instead', async () => {
    const session = await signIn(t.app);
    const response = await signOut(session.access);

    expect(response.json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await homeStatus(t.app, session.access)).status).toBe(401);
    expect((await unlock(t.app, session.refresh)).body).toEqual({ statusCode: StatusCode.SIGN_IN_REQUIRED });
  });

  it('leaves other sessions of the same cardholder signed in', async () => {
    const phone = await signIn(t.app);
    const laptop = await signIn(t.app);
    await signOut(phone.refresh);

    expect((await homeStatus(t.app, laptop.access)).status).toBe(200);
    expect((await unlock(t.app, laptop.refresh)).body.statusCode).toBe(StatusCode.SUCCESS);
  });

  it('answers SUCCESS without a token or with an unknown one, so the app can always sign out locally', async () => {
    expect((await signOut()).json()).toEqual({ statusCode: StatusCode.SUCCESS });
    expect((await signOut('no-such-token')).json()).toEqual({ statusCode: StatusCode.SUCCESS });
  });
});
