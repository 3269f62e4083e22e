/** Generated path tests over the sign-in chart (with the texted code), replayed against the real app and router. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signInMachine } from '../../machines/session/signIn.ts';
import { coverageOf, describePath, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { generateListedPaths } from '../support/listedPaths.ts';
import { alertText, renderApp } from '../support/renderApp.tsx';
import { passServerWait, serverWaitMinutes, serverWaitSeconds, startReplayClock, stopReplayClock } from '../support/replayClock.ts';
import { findPhoneSentence, newCodeNotice } from '../support/textedCodeForm.ts';

/** What the element with the focus says. */
const focusedText = () => document.activeElement?.textContent ?? '';
const signInPath = '/api/v1/sign-in';
const phone = '(XXX) XXX-0143';
const validForm = { type: 'user.submit', email: ' demo@providers.test ', password: 'Providers2026' } as const;
const emptyForm = { type: 'user.submit', email: '', password: '' } as const;
const signedIn = { statusCode: 0, access: 'access-2', refresh: 'refresh-2', isInternal: false, mustResetUnlockCode: false };
const mustReset = { ...signedIn, mustResetUnlockCode: true };

const done = (id: string, output: Record<string, unknown>) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('no statusCode') });
/** Every answer /sign-in may give (contract/session/types.ts). */
const answers = [
  signedIn,
  mustReset,
  { statusCode: 100 },
  { statusCode: 100, retryAfterSeconds: serverWaitSeconds },
  { statusCode: 105, phone },
  { statusCode: 200, attemptsLeft: 2 },
  { statusCode: 201, retryAfterSeconds: serverWaitSeconds },
  { statusCode: 204, phone },
  { statusCode: 5 },
];
const callEvents = ['signIn', 'verifyCode', 'resendCode'].flatMap((id) => [...answers.map((output) => done(id, output)), failed(id)]);
const codeTexted = done('signIn', { statusCode: 105, phone });
const rightCode = { type: 'user.submitCode', code: '123456' };
const shortCode = { type: 'user.submitCode', code: '12' };

/**
 * Three runs, each with the events of one part of the chart (listed events only, or the paths
 * multiply without covering more): the credentials, the code sent with /sign-in, a new code and the waits.
 */
const runs = [
  generateListedPaths(signInMachine, [
    validForm,
    emptyForm,
    ...callEvents.filter((event) => event.type.endsWith('.signIn')),
    { type: 'xstate.after.untilRetry.signIn.paused' },
  ]),
  generateListedPaths(signInMachine, [
    validForm,
    codeTexted,
    rightCode,
    shortCode,
    ...callEvents.filter((event) => event.type.endsWith('.verifyCode')),
  ]),
  generateListedPaths(signInMachine, [
    validForm,
    codeTexted,
    { type: 'user.resendCode' },
    { type: 'user.backToSignIn' },
    { type: 'xstate.after.untilRetry.signIn.mfa.waiting' },
    ...callEvents.filter((event) => event.type.endsWith('.resendCode')),
  ]),
];
/**
 * `pausedMessage`: the paused notice that had the focus, when the path went through the pause.
 * `phone`: the masked phone the server last answered a code went to (or could not go to), until the
 * cardholder went back to sign-in; as the replay answered it, never read from the chart's context.
 */
type Ctx = Awaited<ReturnType<typeof renderApp>> & { pausedMessage?: Element | null; phone: string | null };

const httpStatusOf = (answer: { statusCode: number }) => (answer.statusCode === 0 ? 200 : answer.statusCode === 201 ? 429 : 401);

/** The answers that say where a code went, or could not go (105; 202, 203, 204). */
const phoneAnswers = [105, 202, 203, 204];

async function answer(ctx: Pick<Ctx, 'cardApi'> & Partial<Pick<Ctx, 'phone'>>, event: { output?: unknown; type: string }) {
  const { cardApi } = ctx;
  await waitFor(() => expect(cardApi.isWaiting(signInPath)).toBe(true));
  if (event.type.startsWith('xstate.error')) return cardApi.fail(signInPath);
  const output = event.output as { statusCode: number; phone?: string };
  cardApi.answer(signInPath, output, httpStatusOf(output));
  if (phoneAnswers.includes(output.statusCode)) ctx.phone = output.phone ?? null;
}

const lastBody = ({ cardApi }: Ctx) => JSON.parse(String(cardApi.requests.at(-1)?.init?.body));

describe('sign-in chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(signInMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(runs.flatMap((run) => minimalCover(signInMachine, run)).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => ({ ...(await renderApp('/signin?redirect=%2Fstatements')), phone: null }),
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
          'user.submitCode': async ({ user }, event) => {
            const boxes = await screen.findAllByLabelText(/^Digit \d of 6$/);
            for (const box of boxes) await user.clear(box);
            await user.type(boxes[0]!, String(event.code));
            await user.click(screen.getByRole('button', { name: 'Verify' }));
          },
          'user.resendCode': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Send a new code' })),
          'user.backToSignIn': async (ctx) => {
            await ctx.user.click(await screen.findByRole('button', { name: 'Back to sign in' }));
            ctx.phone = null;
          },
          // The server's deadline passed: the chart re-checks it and the screen is usable again.
          'xstate.after.untilRetry.signIn.paused': async () => {
            await passServerWait();
            await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' }).getAttribute('aria-disabled')).toBe('false'));
          },
          'xstate.after.untilRetry.signIn.mfa.waiting': async () => {
            await passServerWait();
            await waitFor(() => expect(screen.queryByText('Too many codes')).toBeNull());
          },
          ...Object.fromEntries(callEvents.map((event) => [event.type, answer])),
        },
        states: [
          {
            when: (s) => s.matches({ editing: 'idle' }),
            then: async () => {
              expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
              expect(screen.queryByRole('alert')).toBeNull();
            },
          },
          {
            when: (s) => s.matches({ editing: 'invalid' }),
            then: async () => {
              expect(await screen.findByText('Email is required.')).toBeTruthy();
              expect(screen.getByText('Password is required.')).toBeTruthy();
              await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
            },
          },
          {
            when: (s) => s.matches('submitting'),
            then: async (ctx) => {
              const button = await screen.findByRole('button', { name: 'Signing in…' });
              expect(button.getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(ctx.cardApi.isWaiting(signInPath)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'demo@providers.test', password: 'Providers2026' });
            },
          },
          {
            when: (s) => s.matches({ editing: 'rejected' }) || s.matches({ editing: 'resumed' }),
            then: async (ctx, s) => {
              // After the server's pause the paused try is not called incorrect: its password was never compared.
              // The focus is on the message (never lost to the page), which says it once: it is no alert too.
              await waitFor(() =>
                expect(focusedText()).toBe(
                  s.matches({ editing: 'resumed' })
                    ? 'You can try to sign in again now.'
                    : 'Sorry, the email address or password you entered is incorrect. Please try again.',
                ),
              );
              expect(alertText()).toBe('');
              // The pause's end is a new message that takes the focus, so it is said (the same one, its words changed, said nothing).
              if (s.matches({ editing: 'resumed' })) expect(document.activeElement).not.toBe(ctx.pausedMessage);
              expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('demo@providers.test');
            },
          },
          {
            when: (s) => s.matches('paused'),
            then: async (ctx) => {
              await waitFor(() =>
                // Not "incorrect": while paused the server compares no password, and the right one gets this answer too.
                expect(focusedText()).toBe(`Too many triesFor your security, please wait ${serverWaitMinutes} minutes before trying again.`),
              );
              ctx.pausedMessage = document.activeElement;
              expect(screen.getByRole('button', { name: 'Sign in' }).getAttribute('aria-disabled')).toBe('true');
            },
          },
          {
            when: (s) => s.matches({ editing: 'failed' }),
            then: async () => {
              await waitFor(() => expect(screen.getAllByText('There was an unexpected error. Please try again.').length).toBeGreaterThan(0));
              await waitFor(() => expect(focusedText()).toBe('There was an unexpected error. Please try again.'));
              expect(document.activeElement?.getAttribute('role')).toBeNull();
            },
          },
          {
            when: (s) => s.matches({ mfa: 'enteringCode' }),
            then: async (ctx, s) => {
              expect(await screen.findByRole('heading', { name: 'Enter your code' })).toBeTruthy();
              expect(screen.getByRole('group', { name: 'Texted code' })).toBeTruthy();
              expect(screen.getAllByLabelText(/^Digit \d of 6$/)).toHaveLength(6);
              const expected = s.matches({ mfa: { enteringCode: 'invalid' } })
                ? 'Please enter the 6-digit code we texted you.'
                : s.matches({ mfa: { enteringCode: 'wrongCode' } })
                  ? "This isn't the right code. You can try 2 more times."
                  : s.matches({ mfa: { enteringCode: 'failed' } })
                    ? 'There was an unexpected error. Please try again.'
                    : '';
              await waitFor(() => expect(alertText()).toBe(expected));
              // Where the code went, as the server last answered it.
              if (ctx.phone) await findPhoneSentence(`We texted a 6-digit code to ${ctx.phone}.`, ctx.phone);
              else expect(await screen.findByText('We texted you a 6-digit code.')).toBeTruthy();
              expect(newCodeNotice()).toBe(s.matches({ mfa: { enteringCode: 'resent' } }) ? 'We sent you a new code.' : '');
              // A refused code takes the focus from Verify to the first box, its error read with it (on
              // arriving at this step the heading has it, as on every screen).
              const checked = (ctx as { codeChecked?: boolean }).codeChecked === true;
              if (s.matches({ mfa: { enteringCode: 'invalid' } }) || (checked && s.matches({ mfa: { enteringCode: 'wrongCode' } }))) {
                await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Digit 1 of 6')));
              }
            },
          },
          {
            when: (s) => s.matches({ mfa: 'verifyingCode' }),
            then: async (ctx) => {
              (ctx as { codeChecked?: boolean }).codeChecked = true;
              expect((await screen.findByRole('button', { name: 'Verifying…' })).getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(ctx.cardApi.isWaiting(signInPath)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'demo@providers.test', password: 'Providers2026', code: '123456' });
            },
          },
          {
            when: (s) => s.matches({ mfa: 'resendingCode' }),
            then: async (ctx) => {
              await waitFor(() => expect(ctx.cardApi.isWaiting(signInPath)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'demo@providers.test', password: 'Providers2026' });
              // Send a new code let the focus go as it was pressed, not when the browser next draws: an
              // answer before that kept the focus on it (the first box did not take it).
              expect(document.activeElement?.textContent).not.toBe('Send a new code');
            },
          },
          {
            when: (s) => s.matches({ mfa: 'cannotText' }),
            then: async () => {
              await waitFor(() =>
                expect(alertText()).toBe(
                  `We weren't able to text a code to ${phone}.` +
                    'We can only text a mobile phone. Please contact support to change the phone number on your account.',
                ),
              );
              expect(screen.getByRole('button', { name: 'Send a new code' })).toBeTruthy();
            },
          },
          {
            when: (s) => s.matches({ mfa: 'waiting' }),
            then: async () => {
              await waitFor(() =>
                expect(alertText()).toBe(`Too many codesFor your security, please wait ${serverWaitMinutes} minutes before asking for a new code.`),
              );
              expect(screen.queryByRole('button', { name: 'Send a new code' })).toBeNull();
              // The button pressed went with the form: the heading has the focus, the notice under it.
              expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Enter your code' }));
            },
          },
          {
            when: (s) => s.matches('signedIn'),
            then: async ({ router, session }) => {
              const mustResetUnlockCode = path.steps.at(-1)?.event && (path.steps.at(-1)!.event as { output?: { mustResetUnlockCode?: boolean } }).output?.mustResetUnlockCode;
              await waitFor(() => expect(router.state.location.pathname).toBe(mustResetUnlockCode ? '/reset-unlock-code' : '/statements'));
              if (mustResetUnlockCode) expect(router.state.location.search).toEqual({ redirect: '/statements' });
              expect(session.getSnapshot().context).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
            },
          },
        ],
      });
    },
    30_000,
  );

  // The same chart state as a landline (the paths reach it once); the words differ by the answer.
  it("says spec §8's words when the phone on file is not one a code can go to (202)", async () => {
    const ctx = await renderApp('/signin');
    await ctx.user.type(await screen.findByLabelText('Email'), 'demo@providers.test');
    await ctx.user.type(screen.getByLabelText('Password'), 'Providers2026');
    await ctx.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await answer(ctx, done('signIn', { statusCode: 202, phone }));
    await waitFor(() =>
      expect(alertText()).toBe("We don't recognize your phonePlease contact support to change the phone number on your account."),
    );
  });

  it("leaves the focus in a field being typed in when the pause ends (the end comes by itself)", async () => {
    startReplayClock();
    try {
      const ctx = await renderApp('/signin');
      await ctx.user.type(await screen.findByLabelText('Email'), 'demo@providers.test');
      await ctx.user.type(screen.getByLabelText('Password'), 'not-the-password');
      await ctx.user.click(screen.getByRole('button', { name: 'Sign in' }));
      await answer(ctx, done('signIn', { statusCode: 100, retryAfterSeconds: serverWaitSeconds }));
      await waitFor(() => expect(focusedText()).toContain('Too many tries'));
      const password = screen.getByLabelText('Password');
      password.focus();
      await passServerWait();
      expect(await screen.findByText('You can try to sign in again now.')).toBeTruthy();
      expect(document.activeElement).toBe(password);
    } finally {
      stopReplayClock();
    }
  });
});
