/** Generated path tests over the sign-in chart, replayed against the real app and router. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInMachine } from '../../machines/signIn.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { renderApp } from '../support/renderApp.tsx';

const validForm = { type: 'user.submit', email: ' demo@providers.test ', password: 'Providers2026' } as const;
const emptyForm = { type: 'user.submit', email: '', password: '' } as const;
const signedIn = { statusCode: 0, access: 'access-2', refresh: 'refresh-2', isInternal: false };

const events = [
  validForm,
  emptyForm,
  { type: 'xstate.done.actor.signIn', output: signedIn },
  { type: 'xstate.done.actor.signIn', output: { statusCode: 100 } },
  { type: 'xstate.done.actor.signIn', output: { statusCode: 105 } },
  { type: 'xstate.error.actor.signIn', error: new Error('no statusCode') },
];

const run = generatePaths(signInMachine, events);
type Ctx = Awaited<ReturnType<typeof renderApp>>;

const alert = () => screen.queryByRole('alert');

describe('sign-in chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(signInMachine, [run])).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(minimalCover(signInMachine, run).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: () => renderApp('/signin'),
        events: {
          'user.submit': async ({ user }, event) => {
            const form = event as typeof validForm;
            const email = await screen.findByLabelText('Email');
            await user.clear(email);
            if (form.email) await user.type(email, form.email);
            await user.clear(screen.getByLabelText('Password'));
            if (form.password) await user.type(screen.getByLabelText('Password'), form.password);
            await user.click(screen.getByRole('button', { name: 'Sign in' }));
          },
          'xstate.done.actor.signIn': async ({ cardApi }, event) => {
            const answer = event.output as { statusCode: number };
            await waitFor(() => expect(cardApi.isWaiting('/api/v1/sign-in')).toBe(true));
            cardApi.answer('/api/v1/sign-in', answer, answer.statusCode === 0 ? 200 : 401);
          },
          'xstate.error.actor.signIn': async ({ cardApi }) => {
            await waitFor(() => expect(cardApi.isWaiting('/api/v1/sign-in')).toBe(true));
            cardApi.fail('/api/v1/sign-in');
          },
        },
        states: [
          {
            when: (s) => s.matches({ editing: 'idle' }),
            then: async () => {
              expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
              expect(alert()).toBeNull();
            },
          },
          {
            when: (s) => s.matches({ editing: 'invalid' }),
            then: async () => {
              expect(await screen.findByText('Email is required.')).toBeTruthy();
              expect(screen.getByText('Password is required.')).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches('submitting'),
            then: async ({ cardApi }) => {
              const button = await screen.findByRole('button', { name: 'Signing in…' });
              expect((button as HTMLButtonElement).disabled).toBe(true);
              await waitFor(() => expect(cardApi.isWaiting('/api/v1/sign-in')).toBe(true));
              const body = JSON.parse(String(cardApi.requests.at(-1)?.init?.body));
              expect(body).toEqual({ email: 'demo@providers.test', password: 'Providers2026' });
            },
          },
          {
            when: (s) => s.matches({ editing: 'rejected' }),
            then: async () => {
              await waitFor(() =>
                expect(alert()?.textContent).toBe(
                  'Sorry, the email address or password you entered is incorrect. Please try again.',
                ),
              );
              expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('demo@providers.test');
            },
          },
          {
            when: (s) => s.matches({ editing: 'failed' }),
            then: async () => {
              await waitFor(() =>
                expect(screen.getAllByText('There was an unexpected error. Please try again.').length).toBeGreaterThan(0),
              );
            },
          },
          {
            when: (s) => s.matches('signedIn'),
            then: async ({ router, session }) => {
              await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
              expect(session.getSnapshot().context).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
            },
          },
        ],
      });
    },
  );
});
