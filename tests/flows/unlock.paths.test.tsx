/** Generated path tests over the unlock chart, replayed against the real app and router. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { unlockMachine } from '../../machines/session/unlock.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { locked, renderApp } from '../support/renderApp.tsx';

const refreshPath = '/api/v1/refresh-tokens';
const events = [
  { type: 'user.submit', unlockCode: '2580' },
  { type: 'user.submit', unlockCode: '12' },
  { type: 'user.useSignIn' },
  { type: 'xstate.done.actor.refreshTokens', output: { statusCode: 0, access: 'access-9', refresh: 'refresh-9', isInternal: true } },
  { type: 'xstate.done.actor.refreshTokens', output: { statusCode: 101, attemptsLeft: 3 } },
  { type: 'xstate.done.actor.refreshTokens', output: { statusCode: 101, attemptsLeft: 0 } },
  { type: 'xstate.done.actor.refreshTokens', output: { statusCode: 104 } },
  { type: 'xstate.done.actor.refreshTokens', output: { statusCode: 5 } },
  { type: 'xstate.error.actor.refreshTokens', error: new Error('no statusCode') },
];

const runs = [
  generatePaths(unlockMachine, events),
  // The session ended on the server (104): its own run, as a cover takes one answer for the transition it shares with the last wrong code.
  generatePaths(unlockMachine, [events[0]!, { type: 'xstate.done.actor.refreshTokens', output: { statusCode: 104 } }]),
];
const paths = runs.flatMap((run) => minimalCover(unlockMachine, run));
/** The app, and whether the last answer was the wrong code with no attempt left (sign-in then says the unlock code is locked). */
type Ctx = Awaited<ReturnType<typeof renderApp>> & { unlockCodeLocked: boolean };

describe('unlock chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(unlockMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  // Sign-in says why it is asked for: each way there is replayed (a cover could take one answer for both).
  it('the replayed paths reach sign-in by the last wrong code, by an ended session and by choice', () => {
    const last = paths.flatMap((path) => {
      const event = path.steps.at(-1)?.event as { type: string; output?: { statusCode: number; attemptsLeft?: number } } | undefined;
      return path.state.matches('signInRequired') && event ? [event.output ? `${event.output.statusCode}/${String(event.output.attemptsLeft)}` : event.type] : [];
    });
    expect(new Set(last)).toEqual(new Set(['101/0', '104/undefined', 'user.useSignIn']));
  });

  it.each(paths.map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => ({ ...(await renderApp('/unlock?redirect=%2Fstatements', locked)), unlockCodeLocked: false }),
        events: {
          'user.submit': async ({ user }, event) => {
            const input = await screen.findByLabelText('Unlock code');
            await user.clear(input);
            await user.type(input, String(event.unlockCode));
            await user.click(screen.getByRole('button', { name: 'Unlock' }));
          },
          'user.useSignIn': async ({ user }) => {
            await user.click(await screen.findByRole('button', { name: 'Sign in with your email and password instead' }));
          },
          'xstate.done.actor.refreshTokens': async (ctx, event) => {
            const { cardApi } = ctx;
            const answer = event.output as { statusCode: number; attemptsLeft?: number };
            ctx.unlockCodeLocked = answer.statusCode === 101 && answer.attemptsLeft === 0;
            await waitFor(() => expect(cardApi.isWaiting(refreshPath)).toBe(true));
            cardApi.answer(refreshPath, answer, answer.statusCode === 0 ? 200 : 401);
          },
          'xstate.error.actor.refreshTokens': async ({ cardApi }) => {
            await waitFor(() => expect(cardApi.isWaiting(refreshPath)).toBe(true));
            cardApi.fail(refreshPath);
          },
        },
        states: [
          {
            when: (s) => s.matches({ editing: 'idle' }),
            then: async () => {
              expect(await screen.findByRole('heading', { name: 'Enter your unlock code' })).toBeTruthy();
              expect(screen.queryByRole('alert')).toBeNull();
            },
          },
          {
            when: (s) => s.matches({ editing: 'invalid' }),
            then: async () => {
              expect(await screen.findByText('Please enter your 4-digit unlock code.')).toBeTruthy();
              // Focus is on the field, so a screen reader reads it with its error (WCAG 2.2 SC 3.3.1).
              await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Unlock code')));
            },
          },
          {
            when: (s) => s.matches('submitting'),
            then: async ({ cardApi }) => {
              expect((await screen.findByRole('button', { name: 'Unlocking…' })).getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(cardApi.isWaiting(refreshPath)).toBe(true));
              const request = cardApi.requests.at(-1)!;
              expect(JSON.parse(String(request.init?.body))).toEqual({ unlockCode: '2580' });
              expect(new Headers(request.init?.headers).get('authorization')).toBe('Bearer refresh-1');
            },
          },
          {
            when: (s) => s.matches({ editing: 'wrongCode' }),
            then: async () => {
              const field = screen.getByLabelText('Unlock code');
              await waitFor(() =>
                expect(document.getElementById('unlock-code-error')?.textContent).toBe("This isn't the right code. You have 3 more unlock attempts."),
              );
              // The field is in error, tied to the message, and has the focus to type the code again (it
              // was on the Unlock button during the call).
              expect(field.getAttribute('aria-invalid')).toBe('true');
              expect(field.getAttribute('aria-describedby')).toBe('unlock-code-error');
              await waitFor(() => expect(document.activeElement).toBe(field));
            },
          },
          {
            when: (s) => s.matches({ editing: 'failed' }),
            then: async () => {
              await waitFor(() =>
                expect(screen.getAllByText('There was an unexpected error. Please try again.').length).toBeGreaterThan(0),
              );
              await waitFor(() => expect(document.activeElement?.textContent).toBe('There was an unexpected error. Please try again.'));
            },
          },
          {
            when: (s) => s.matches('unlocked'),
            then: async ({ router, session }) => {
              await waitFor(() => expect(router.state.location.pathname).toBe('/statements'));
              expect(session.getSnapshot().context).toMatchObject({ accessToken: 'access-9', refreshToken: 'refresh-9', isInternal: true });
            },
          },
          {
            when: (s) => s.matches('signInRequired'),
            then: async ({ router, session, unlockCodeLocked }) => {
              await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
              expect(router.state.location.search).toEqual({ redirect: '/statements' });
              // The last wrong code locked the unlock code: said, not only "sign in again" (WCAG 2.2 SC 3.3.1).
              const why = unlockCodeLocked
                ? 'You entered a wrong unlock code too many times. Please sign in with your password, then choose a new unlock code.'
                : 'For your security, please sign in again.';
              expect(await screen.findByText(why)).toBeTruthy();
              expect(screen.queryByText(unlockCodeLocked ? 'For your security, please sign in again.' : /wrong unlock code too many times/)).toBeNull();
              expect(session.getSnapshot().context.refreshToken).toBeNull();
            },
          },
        ],
      });
    },
  );
});
