/**
 * The auth modal over a screen with typed work (spec §4 auth), through the real app, router and
 * session over a fake card API: the screen stays mounted with what was typed, the address bar shows
 * the auth route, and afterwards the screen and its interrupted call go on (or start over for
 * another account, or end when the user leaves).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusCode } from '../../../contract/shared/statusCodes.ts';
import { accessTokenFor } from '../../support/accessTokens.ts';
import { active, recordingHost, renderApp, type RenderOptions } from '../../support/renderApp.tsx';

const setPath = '/api/v1/set-unlock-code';
const working = { ...active, accessToken: accessTokenFor('user-1') };
type App = Awaited<ReturnType<typeof renderApp>>;

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

/** Manage account with a new code typed and submitted; the call waits for the test's answer. */
async function submitNewCode(options: RenderOptions = {}): Promise<App & { form: HTMLFormElement }> {
  const app = await renderApp('/manage-account', working, options);
  await screen.findByRole('heading', { level: 1, name: 'Manage account' });
  const form = field('New unlock code').closest('form')!;
  await app.user.type(field('Current unlock code'), '2580');
  await app.user.type(field('New unlock code'), '2468');
  await app.user.type(field('Confirm new unlock code'), '2468');
  await app.user.click(screen.getByRole('button', { name: 'Save unlock code' }));
  await waitFor(() => expect(app.cardApi.isWaiting(setPath)).toBe(true));
  return { ...app, form };
}

async function answer(app: App, path: string, body: unknown, status = 200) {
  await waitFor(() => expect(app.cardApi.isWaiting(path)).toBe(true));
  app.cardApi.answer(path, body, status);
}

const authorizationOf = (app: App, index: number) => new Headers(app.cardApi.requests.filter((r) => r.path === setPath)[index]?.init?.headers).get('Authorization');

/** The screen under the modal: the same form, still holding what was typed. */
function expectTypedWorkIntact(form: HTMLFormElement) {
  expect(form.isConnected).toBe(true);
  expect(field('New unlock code')).toBe(form.elements.namedItem('unlockCode'));
  expect([field('Current unlock code').value, field('New unlock code').value, field('Confirm new unlock code').value]).toEqual(['2580', '2468', '2468']);
}

describe('auth modal', () => {
  it('REFRESH_REQUIRED: unlock over the form, which stays as typed, then the save goes through with the new token', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.REFRESH_REQUIRED }, 401);

    const dialog = await screen.findByRole('dialog', { name: 'Enter your unlock code' });
    expect(within(dialog).getByRole('status').textContent).toBe('Your session has expired.');
    // The address bar shows unlock, remembering the screen; the screen itself is still matched.
    await waitFor(() => expect(app.router.state.location.maskedLocation?.pathname).toBe('/unlock'));
    expect(app.router.state.location.maskedLocation?.search).toEqual({ redirect: '/manage-account' });
    expect(app.router.state.location.pathname).toBe('/manage-account');
    expectTypedWorkIntact(app.form);
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeTruthy();

    await app.user.type(within(dialog).getByLabelText('Unlock code'), '2580');
    await app.user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    const renewed = accessTokenFor('user-1').replace('signature', 'renewed');
    await answer(app, '/api/v1/refresh-tokens', { statusCode: 0, access: renewed, refresh: 'refresh-2', isInternal: false });

    // The interrupted call is sent again, once, with the new access token.
    await waitFor(() => expect(app.cardApi.requests.filter((r) => r.path === setPath)).toHaveLength(2));
    expect(authorizationOf(app, 1)).toBe(`Bearer ${renewed}`);
    expect(JSON.parse(String(app.cardApi.requests.filter((r) => r.path === setPath)[1]?.init?.body))).toEqual({ currentUnlockCode: '2580', unlockCode: '2468' });
    await answer(app, setPath, { statusCode: 0 });

    expect((await within(screen.getByRole('main')).findByRole('status')).textContent).toContain('Your unlock code has been changed.');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(app.router.state.location.maskedLocation).toBeUndefined());
    expect(app.router.state.location.href).toBe('/manage-account');
    expect(app.form.isConnected).toBe(true);
  });

  it('SIGN_IN_REQUIRED: the same account signs in over the form and the save goes through', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);

    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(dialog).getByRole('status').textContent).toBe('For your security, please sign in again.');
    await waitFor(() => expect(app.router.state.location.maskedLocation?.pathname).toBe('/signin'));
    expectTypedWorkIntact(app.form);
    // Opening an account makes no sense here; the way to reset a password stays.
    expect(within(dialog).queryByRole('link', { name: 'New to Providers? Open an account' })).toBeNull();

    await app.user.type(within(dialog).getByLabelText('Email'), 'demo@providers.test');
    await app.user.type(within(dialog).getByLabelText('Password'), 'Providers2026');
    await app.user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    const signedIn = accessTokenFor('user-1').replace('signature', 'again');
    await answer(app, '/api/v1/sign-in', { statusCode: 0, access: signedIn, refresh: 'refresh-3', isInternal: false });

    await waitFor(() => expect(app.cardApi.requests.filter((r) => r.path === setPath)).toHaveLength(2));
    expect(authorizationOf(app, 1)).toBe(`Bearer ${signedIn}`);
    await answer(app, setPath, { statusCode: 0 });
    expect((await within(screen.getByRole('main')).findByRole('status')).textContent).toContain('Your unlock code has been changed.');
    expect(app.router.state.location.href).toBe('/manage-account');
  });

  it('a sign-in that must reset the unlock code first goes there, remembering the interrupted screen', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await app.user.type(within(dialog).getByLabelText('Email'), 'demo@providers.test');
    await app.user.type(within(dialog).getByLabelText('Password'), 'Providers2026');
    await app.user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    const access = accessTokenFor('user-1').replace('signature', 'locked-out');
    await answer(app, '/api/v1/sign-in', { statusCode: 0, access, refresh: 'refresh-4', isInternal: false, mustResetUnlockCode: true });

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/reset-unlock-code'));
    expect(app.router.state.location.search).toEqual({ redirect: '/manage-account' });
    expect(app.router.state.location.maskedLocation).toBeUndefined();
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify your identity' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('"Forgot your unlock code?" in the unlock dialog goes to its reset, remembering the interrupted screen', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
    const dialog = await screen.findByRole('dialog', { name: 'Enter your unlock code' });
    await app.user.click(within(dialog).getByRole('link', { name: 'Forgot your unlock code?' }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/reset-unlock-code'));
    expect(app.router.state.location.search).toEqual({ redirect: '/manage-account' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify your identity' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('another account signing in never sees the interrupted screen: home starts over, the call is not sent again', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await app.user.type(within(dialog).getByLabelText('Email'), 'someone.else@providers.test');
    await app.user.type(within(dialog).getByLabelText('Password'), 'Another2026');
    await app.user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await answer(app, '/api/v1/sign-in', { statusCode: 0, access: accessTokenFor('user-2'), refresh: 'refresh-9', isInternal: false });

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/home'));
    expect(app.form.isConnected).toBe(false);
    // Home loads with the new account's token; the typed code is gone, and was never sent for it.
    await waitFor(() => expect(app.cardApi.isWaiting('/api/v1/home')).toBe(true));
    const homeCall = app.cardApi.requests.findLast((r) => r.path === '/api/v1/home');
    expect(new Headers(homeCall?.init?.headers).get('Authorization')).toBe(`Bearer ${accessTokenFor('user-2')}`);
    expect(screen.queryByDisplayValue('2468')).toBeNull();
    expect(app.cardApi.requests.filter((r) => r.path === setPath)).toHaveLength(1);
  });

  it('the language can be switched in the modal (the header is behind it), and the work waits on', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
    const dialog = await screen.findByRole('dialog', { name: 'Enter your unlock code' });
    // Standalone, there is no companion app to go back to.
    expect(within(dialog).queryByRole('button', { name: /Back to benefits/ })).toBeNull();

    // The catalogue follows the session's locale in main.tsx (the Spanish modal: e2e/auth-modal.spec.ts).
    await app.user.click(within(dialog).getByRole('button', { name: 'Español' }));
    expect(app.session.getSnapshot().context.locale).toBe('es');
    expect(app.session.getSnapshot().matches({ authModal: 'open' })).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'English' })).toBeTruthy();
    expectTypedWorkIntact(app.form);
    expect(app.cardApi.requests.filter((r) => r.path === setPath)).toHaveLength(1);
  });

  it('inside the companion app the modal also offers the way back to it', async () => {
    const { host, asked } = recordingHost({ returnToHostRoute: (route) => void asked.returnToHostRoute.push(route) });
    const app = await submitNewCode({ host });
    await answer(app, setPath, { statusCode: StatusCode.REFRESH_REQUIRED }, 401);
    const dialog = await screen.findByRole('dialog', { name: 'Enter your unlock code' });

    await app.user.click(within(dialog).getByRole('button', { name: /Back to benefits/ }));
    expect(asked.returnToHostRoute).toEqual(['home']);
  });

  it('leaving through a link in the modal gives the work up: the waiting save ends, nothing is sent again', async () => {
    const app = await submitNewCode();
    await answer(app, setPath, { statusCode: StatusCode.SIGN_IN_REQUIRED }, 401);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    // The email typed goes along: the reset does not ask for it again (WCAG 2.2 SC 3.3.7).
    await app.user.clear(within(dialog).getByLabelText('Email'));
    await app.user.type(within(dialog).getByLabelText('Email'), 'ana@example.test');
    await app.user.click(within(dialog).getByRole('link', { name: 'Forgot your password?' }));

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/reset-password'));
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'ana@example.test');
    await waitFor(() => expect(app.session.getSnapshot().matches({ authModal: 'closed' })).toBe(true));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.cardApi.requests.filter((r) => r.path === setPath)).toHaveLength(1);
  });
});
