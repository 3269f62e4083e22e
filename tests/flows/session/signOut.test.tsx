/**
 * Signing out through the real app, router and session over a fake card API: the phone signs out at
 * once, and the server's answer to the sign-out, whatever it is or if none comes, changes nothing.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accessTokenFor } from '../../support/accessTokens.ts';
import { active, renderApp } from '../../support/renderApp.tsx';

const signOutPath = '/api/v1/sign-out';
const signInPath = '/api/v1/sign-in';

describe('sign-out', () => {
  it.each([
    ['no answer (a dropped connection)', 'drop'],
    ['a proxy error page (no statusCode)', 'fail'],
  ] as const)('with %s from the server, the app goes on: the next sign-in works', async (_name, how) => {
    const app = await renderApp('/manage-account', active);
    await screen.findByRole('heading', { level: 1, name: 'Manage account' });
    await app.user.click(screen.getByRole('button', { name: 'Sign out' }));

    // Signed out before the server answers.
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect([app.session.getSnapshot().context.accessToken, app.session.getSnapshot().context.refreshToken]).toEqual([null, null]);
    await waitFor(() => expect(app.cardApi.isWaiting(signOutPath)).toBe(true));
    app.cardApi[how](signOutPath);
    await waitFor(() => expect(app.cardApi.isWaiting(signOutPath)).toBe(false));
    expect(app.session.getSnapshot().status).toBe('active');

    await app.user.type(screen.getByLabelText('Email'), 'demo@providers.test');
    await app.user.type(screen.getByLabelText('Password'), 'Providers2026');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.cardApi.isWaiting(signInPath)).toBe(true));
    app.cardApi.answer(signInPath, { statusCode: 0, access: accessTokenFor('user-1'), refresh: 'r2', isInternal: false, mustResetUnlockCode: false });
    await waitFor(() => expect(app.session.getSnapshot().matches({ auth: 'active' })).toBe(true));
  });
});
