/**
 * Generated path tests over the app-level session chart. Each path is replayed on a live actor
 * with the app's side effects recorded, and every state is checked against what it promises.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { failedRegistrationMarker, sessionMachine, snackbarTimeoutMs, type SessionInput } from '../../machines/session.ts';
import { coverageOf, describePath, generatePaths, minimalCover } from '../support/chartCoverage.ts';
import { active, locked, signedOut } from '../support/renderApp.tsx';

const afterSnackbar = `xstate.after.${snackbarTimeoutMs}.session.snackbar.visible`;
const authEvents = [
  { type: 'session.signedIn', access: 'a2', refresh: 'r2', isInternal: false },
  { type: 'session.refreshRequired' },
  { type: 'session.signInRequired' },
  { type: 'user.signOut' },
  { type: 'xstate.done.actor.signOut', output: undefined },
  { type: 'xstate.error.actor.signOut', error: new Error('offline') },
  { type: 'session.registrationFailed' },
];
const shellEvents = [
  { type: 'errorModal.open' },
  { type: 'user.closeErrorModal' },
  { type: 'snackbar.show', message: 'signedOut' },
  { type: 'user.dismissSnackbar' },
  { type: afterSnackbar },
  { type: 'user.changeLocale', locale: 'es' },
  { type: 'registration.draftChanged', draft: null },
];

const runs = [
  { input: signedOut, events: authEvents },
  { input: locked, events: authEvents },
  { input: active, events: authEvents },
  { input: signedOut, events: shellEvents },
  { input: { ...locked, refreshToken: failedRegistrationMarker }, events: authEvents },
].map(({ input, events }) => ({ input, ...generatePaths(sessionMachine, events, input) }));

/** What each auth state promises about the tokens. */
function checkInvariants(snapshot: AnyMachineSnapshot) {
  const { accessToken, refreshToken, snackbarMessage } = snapshot.context;
  if (snapshot.matches({ auth: 'active' })) expect(accessToken && refreshToken).toBeTruthy();
  if (snapshot.matches({ auth: 'locked' })) expect([accessToken, Boolean(refreshToken)]).toEqual([null, true]);
  // Signed out: no tokens, or only the failed-registration marker (which is no session).
  if (snapshot.matches({ auth: 'signedOut' })) expect([accessToken, [null, failedRegistrationMarker].includes(refreshToken)]).toEqual([null, true]);
  if (snapshot.matches({ snackbar: 'visible' })) expect(snackbarMessage).toBe('signedOut');
}

describe('session chart', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('generated paths reach every state and transition', () => {
    expect(coverageOf(sessionMachine, runs)).toEqual({
      missingStates: [],
      missingTransitions: [],
    });
  });

  const cases = runs.flatMap((run) =>
    minimalCover(sessionMachine, run).map((path) => [describePath(path), run.input, path] as const),
  );

  it.each(cases)('path %s', async (_name, input, path) => {
    const effects: string[] = [];
    let finishSignOut: (ok: boolean) => void = () => {};
    const actor = createActor(
      sessionMachine.provide({
        actions: { openAuth: () => void effects.push('openAuth'), goToSignIn: () => void effects.push('goToSignIn') },
        actors: {
          signOut: fromPromise(
            () => new Promise<void>((resolve, reject) => (finishSignOut = (ok) => (ok ? resolve() : reject(new Error('offline'))))),
          ),
        },
      }),
      { input: input as SessionInput },
    ).start();

    for (const step of path.steps) {
      const event = step.event as EventObject;
      if (event.type === 'xstate.done.actor.signOut') finishSignOut(true);
      else if (event.type === 'xstate.error.actor.signOut') finishSignOut(false);
      else if (event.type === afterSnackbar) {
        // The snackbar stays for its full 5000 ms, then dismisses itself.
        await vi.advanceTimersByTimeAsync(snackbarTimeoutMs - 1);
        expect(actor.getSnapshot().matches({ snackbar: 'visible' })).toBe(true);
        await vi.advanceTimersByTimeAsync(1);
      } else if (event.type !== 'xstate.init') actor.send(event as never);
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toEqual(step.state.value);
      checkInvariants(actor.getSnapshot());
    }
    if (path.steps.some((step) => step.event.type === 'session.refreshRequired' && step.state.matches({ auth: 'locked' }))) {
      expect(effects).toContain('openAuth');
    }
    actor.stop();
  });
});
