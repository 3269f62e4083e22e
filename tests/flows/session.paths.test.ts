/**
 * Generated path tests over the app-level session chart. Each path is replayed on a live actor
 * with the app's side effects recorded, and every state is checked against what it promises.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { accountOf, failedRegistrationMarker, sessionMachine, snackbarTimeoutMs, type SessionInput } from '../../machines/session/session.ts';
import { accessTokenFor } from '../support/accessTokens.ts';
import { coverageOf, describePath, generatePaths, minimalCover } from '../support/chartCoverage.ts';
import { active, locked, signedOut } from '../support/renderApp.tsx';

const afterSnackbar = `xstate.after.${snackbarTimeoutMs}.session.snackbar.visible`;
/** Access tokens name their account: the same one signs in again, or another one does. */
const sameAccount = accessTokenFor('user-1');
const otherAccount = accessTokenFor('user-2');
const working: SessionInput = { ...active, accessToken: sameAccount };

const authEvents = [
  { type: 'session.signedIn', access: sameAccount, refresh: 'r2', isInternal: false },
  { type: 'session.refreshRequired', location: '/manage-account' },
  { type: 'session.signInRequired', location: '/manage-account' },
  { type: 'user.signOut' },
  { type: 'session.registrationFailed' },
];
/** The auth modal over a screen: resumed by the same account, given up otherwise. */
const authModalEvents = [
  ...authEvents,
  { type: 'session.signedIn', access: otherAccount, refresh: 'r3', isInternal: false },
  { type: 'authModal.left' },
];
const shellEvents = [
  { type: 'errorModal.open' },
  { type: 'user.closeErrorModal' },
  { type: 'snackbar.show', message: 'signedOut' },
  { type: 'user.dismissSnackbar' },
  { type: 'user.holdSnackbar' },
  { type: 'user.releaseSnackbar' },
  { type: afterSnackbar },
  { type: 'user.changeLocale', locale: 'es' },
  { type: 'registration.draftChanged', draft: null },
];

/** The screens' generation only ever counts up: states differing only in it are the same state. */
function withoutCounters(snapshot: AnyMachineSnapshot): string {
  const { screensGeneration: _generation, ...context } = snapshot.context as Record<string, unknown>;
  return JSON.stringify({ value: snapshot.value, context });
}

const runs = [
  { input: signedOut, events: authEvents },
  { input: locked, events: authEvents },
  { input: active, events: authEvents, shortest: true },
  { input: working, events: authModalEvents, shortest: true },
  { input: signedOut, events: shellEvents },
  { input: { ...locked, refreshToken: failedRegistrationMarker }, events: authEvents },
].map(({ input, events, shortest }: { input: SessionInput; events: EventObject[]; shortest?: boolean }) => ({
  input,
  ...generatePaths(sessionMachine, events, input, { serializeState: withoutCounters, shortest }),
}));

/** What each auth state promises about the tokens. */
function checkInvariants(snapshot: AnyMachineSnapshot) {
  const { accessToken, refreshToken, snackbarMessage, interruption } = snapshot.context;
  if (snapshot.matches({ auth: 'active' })) expect(accessToken && refreshToken).toBeTruthy();
  if (snapshot.matches({ auth: 'locked' })) expect([accessToken, Boolean(refreshToken)]).toEqual([null, true]);
  // Signed out: no tokens, or only the failed-registration marker (which is no session).
  if (snapshot.matches({ auth: 'signedOut' })) expect([accessToken, [null, failedRegistrationMarker].includes(refreshToken)]).toEqual([null, true]);
  if (snapshot.hasTag('snackbarShown')) expect(snackbarMessage).toBe('signedOut');
  else expect(snackbarMessage).toBeNull();
  // The auth modal is open exactly while there is interrupted work, and only while authenticating.
  expect(snapshot.matches({ authModal: 'open' })).toBe(interruption !== null);
  if (snapshot.matches({ authModal: 'open' })) {
    expect(snapshot.matches({ auth: 'active' })).toBe(false);
    expect(interruption?.location).toBe('/manage-account');
  }
}

/** What the app is asked to do as the auth modal opens, switches and closes. */
function checkAuthModalEffects(before: AnyMachineSnapshot, after: AnyMachineSnapshot, event: EventObject, effects: string[]) {
  const wasOpen = before.matches({ authModal: 'open' });
  const isOpen = after.matches({ authModal: 'open' });
  if (!wasOpen && isOpen) {
    // Opened by a call during an active session: the route shows the matching auth screen.
    expect(before.matches({ auth: 'active' })).toBe(true);
    expect(effects).toEqual([after.matches({ auth: 'locked' }) ? 'maskRoute unlock' : 'maskRoute signin']);
    // The account is read from the access token before it is dropped.
    expect(after.context.interruption?.account).toBe(accountOf(before.context.accessToken));
  }
  if (wasOpen && isOpen && event.type === 'session.signInRequired') expect(effects).toEqual(['maskRoute signin']);
  if (wasOpen && !isOpen) {
    const interrupted = before.context.interruption?.account ?? null;
    const signedInAs = event.type === 'session.signedIn' ? accountOf((event as { access?: string }).access ?? null) : null;
    // Only the account whose screen it was resumes it (an unknown account never does).
    if (interrupted !== null && signedInAs === interrupted) expect(effects).toEqual([`resume ${interrupted}`]);
    else if (event.type === 'session.signedIn') {
      // Another account: the waiting calls give up and the screens start over from home.
      expect(effects).toEqual(['abandon', 'goHome']);
      expect(after.context.screensGeneration).toBe(before.context.screensGeneration + 1);
    } else expect(effects).toContain('abandon');
  }
  // Without the modal, a sign-in required on the unlock screen goes to the sign-in screen.
  if (!wasOpen && before.matches({ auth: 'locked' }) && event.type === 'session.signInRequired') expect(effects).toEqual(['openAuth']);
}

/**
 * Signing out, from a session: the phone forgets it at once (signed out, no tokens, the snackbar and
 * sign-in), the server is told with the refresh token the session had, and the other tabs are told.
 * Nothing else says a sign-out was made.
 */
function checkSignOut(before: AnyMachineSnapshot, after: AnyMachineSnapshot, event: EventObject, effects: string[], told: string[]) {
  const signingOut = event.type === 'user.signOut' && before.hasTag('signedIn');
  if (signingOut) {
    expect(after.matches({ auth: 'signedOut' })).toBe(true);
    expect([after.context.accessToken, after.context.refreshToken]).toEqual([null, null]);
    expect(effects).toEqual(expect.arrayContaining([`revoke ${before.context.refreshToken}`, 'goToSignIn']));
    expect(after.context.snackbarMessage).toBe('signedOut');
    expect(told).toEqual(['signedOut']);
  } else {
    expect(effects.filter((effect) => effect.startsWith('revoke'))).toEqual([]);
    expect(told).toEqual([]);
  }
  told.length = 0;
}

describe('session chart', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  // CPU-bound (every path walked on a live actor): slow when the other test worker is busy too.
  it('generated paths reach every state and transition', { timeout: 120_000 }, () => {
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
    const actor = createActor(
      sessionMachine.provide({
        actions: {
          openAuth: () => void effects.push('openAuth'),
          goToSignIn: () => void effects.push('goToSignIn'),
          maskRoute: ({ context }) => void effects.push(`maskRoute ${context.refreshToken ? 'unlock' : 'signin'}`),
          resumeInterruption: (_, { access }) => void effects.push(`resume ${accountOf(access)}`),
          abandonInterruption: () => void effects.push('abandon'),
          goHome: () => void effects.push('goHome'),
        },
        actors: {
          // The server's answer never comes: the phone is signed out all the same.
          signOut: fromPromise(({ input }) => (effects.push(`revoke ${input.refreshToken}`), new Promise<void>(() => {}))),
        },
      }),
      { input: input as SessionInput },
    );
    const told: string[] = [];
    actor.on('signedOut', ({ type }) => void told.push(type));
    actor.start();

    for (const step of path.steps) {
      const event = step.event as EventObject;
      const before = actor.getSnapshot();
      effects.length = 0;
      if (event.type === afterSnackbar) {
        // The snackbar stays for its full 5000 ms (spec §9), then dismisses itself: the spec's figure, not
        // the chart's constant, so a changed constant fails here.
        await vi.advanceTimersByTimeAsync(5000 - 1);
        expect(actor.getSnapshot().matches({ snackbar: 'visible' })).toBe(true);
        await vi.advanceTimersByTimeAsync(1);
      } else if (event.type !== 'xstate.init') actor.send(event as never);
      await vi.advanceTimersByTimeAsync(0);
      // Held, it stays however long the reader takes (WCAG 2.2 SC 2.2.1).
      if (actor.getSnapshot().matches({ snackbar: 'held' })) await vi.advanceTimersByTimeAsync(60_000);
      expect(actor.getSnapshot().value).toEqual(step.state.value);
      checkInvariants(actor.getSnapshot());
      checkAuthModalEffects(before, actor.getSnapshot(), event, effects);
      checkSignOut(before, actor.getSnapshot(), event, effects, told);
    }
    actor.stop();
  });
});
