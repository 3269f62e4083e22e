/** Generated path tests over the reset-password chart, replayed against the real app and router. */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { checkNewPassword, ValidationMessage } from '../../contract/rules.ts';
import { resetPasswordMachine, type ResetPasswordInput } from '../../machines/session/resetPassword.ts';
import { coverageOf, describePath, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { descriptionOf } from '../support/description.ts';
import { generateListedPaths } from '../support/listedPaths.ts';
import { alertText, renderApp, signedOut, expectTabTitle } from '../support/renderApp.tsx';
import { passServerWait, serverWaitMinutes, serverWaitSeconds } from '../support/replayClock.ts';
import { expectSsnStepShown, expectSsnWait } from '../support/ssnStep.ts';
import { newCodeNotice } from '../support/textedCodeForm.ts';

const pathOf: Record<string, string> = {
  sendResetCode: '/api/v1/reset-password',
  resendResetCode: '/api/v1/reset-password',
  verifyResetCode: '/api/v1/verify/reset-code',
  verifySsn: '/api/v1/verify/ssn',
  changePassword: '/api/v1/change-password',
};
/** An event for a generated run (any fields). */
const listed = (event: EventObject & Record<string, unknown>): EventObject => event;
const done = (id: string, output: Record<string, unknown>) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('no statusCode') });
const email = { type: 'user.submitEmail', email: ' ana@example.test ' };
const codeSent = done('sendResetCode', { statusCode: 0 });
const rightCode = { type: 'user.submitCode', code: '123456' };
const codeVerified = done('verifyResetCode', { statusCode: 0, mfaToken: 'mfa-token-1' });
const toSsn = [email, codeSent, rightCode, codeVerified];
const ssn = { type: 'user.submitSsn', ssn: '123-45-6789' };
const ssnVerified = done('verifySsn', { statusCode: 0, ssnToken: 'ssn-token-1' });
const password = { type: 'user.submitPassword', password: 'NewPass2026' };
const toPassword = [...toSsn, ssn, ssnVerified];
const shortPassword = listed({ type: 'user.submitPassword', password: 'short' });

const runs = [
  generateListedPaths(
    resetPasswordMachine,
    [email, { type: 'user.submitEmail', email: 'not-an-email' }, codeSent, done('sendResetCode', { statusCode: 5 }), done('sendResetCode', { statusCode: 201, retryAfterSeconds: 300 }), failed('sendResetCode')],
    { thenSignIn: false },
  ),
  generateListedPaths(
    resetPasswordMachine,
    [
      email,
      codeSent,
      rightCode,
      listed({ type: 'user.submitCode', code: '12' }),
      codeVerified,
      done('verifyResetCode', { statusCode: 200, attemptsLeft: 2 }),
      done('verifyResetCode', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
      done('verifyResetCode', { statusCode: 5 }),
      failed('verifyResetCode'),
      { type: 'xstate.after.untilRetry.resetPassword.code.waiting' },
      listed({ type: 'user.goToStep', step: 1 }),
    ],
    { thenSignIn: false },
    // Simple paths through the code's retries explode: shortest paths plus each closing step.
    { shortest: true },
  ),
  generateListedPaths(
    resetPasswordMachine,
    [
      email,
      codeSent,
      { type: 'user.resendCode' },
      done('resendResetCode', { statusCode: 0 }),
      done('resendResetCode', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
      done('resendResetCode', { statusCode: 5 }),
      failed('resendResetCode'),
    ],
    { thenSignIn: false },
  ),
  generateListedPaths(
    resetPasswordMachine,
    [
      ...toSsn,
      ssn,
      listed({ type: 'user.submitSsn', ssn: '12' }),
      ssnVerified,
      done('verifySsn', { statusCode: 4, attemptsLeft: 2 }),
      // The texted code's proof expired meanwhile: back to step 1 for a new code.
      done('verifySsn', { statusCode: 4, fieldErrors: { mfaToken: 'phone.unverified' } }),
      done('verifySsn', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
      done('verifySsn', { statusCode: 5 }),
      failed('verifySsn'),
      { type: 'xstate.after.untilRetry.resetPassword.ssn.waiting' },
      listed({ type: 'user.goToStep', step: 1 }),
    ],
    { thenSignIn: false },
  ),
  generateListedPaths(
    resetPasswordMachine,
    [
      ...toPassword,
      password,
      listed({ type: 'user.submitPassword', password: 'has space' }),
      shortPassword,
      done('changePassword', { statusCode: 0 }),
      done('changePassword', { statusCode: 4, fieldErrors: { password: 'password.common' } }),
      done('changePassword', { statusCode: 4, fieldErrors: { mfaToken: 'phone.unverified' } }),
      done('changePassword', { statusCode: 5 }),
      failed('changePassword'),
      listed({ type: 'user.goToStep', step: 1 }),
      listed({ type: 'user.goToStep', step: 2 }),
    ],
    { thenSignIn: false },
  ),
  generateListedPaths(resetPasswordMachine, [...toPassword, password, done('changePassword', { statusCode: 0 })], { thenSignIn: true }),
  // A password too short, on its own: the run above covers the same transition with the spaced one.
  generateListedPaths(resetPasswordMachine, [...toPassword, shortPassword], { thenSignIn: false }),
  // Opened again at step 2 (a reload while the text is read): back at the code, its email kept; no new code sent.
  generateListedPaths(resetPasswordMachine, [rightCode, codeVerified, listed({ type: 'user.goToStep', step: 1 })], { thenSignIn: false, codeSentTo: 'ana@example.test' }, { shortest: true }),
];

type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  /**
   * The new password's problem, as the replay caused it (never read from the chart's context): the app's
   * rule applied to what was typed, or the server's finding it can say.
   */
  passwordProblem: string | null;
};

async function answer({ cardApi }: Ctx, event: { type: string; output?: unknown }) {
  const path = pathOf[event.type.split('.').at(-1)!]!;
  await waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
  if (event.type.startsWith('xstate.error')) return cardApi.fail(path);
  const output = event.output as { statusCode: number; fieldErrors?: object };
  const status = output.fieldErrors ? 400 : output.statusCode === 0 || output.statusCode === 200 ? 200 : output.statusCode === 201 ? 429 : output.statusCode === 5 ? 500 : 401;
  cardApi.answer(path, output, status);
}

async function fill({ user }: Ctx, label: string, value: string) {
  const input = await screen.findByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
}

const lastBody = ({ cardApi }: Ctx) => JSON.parse(String(cardApi.requests.at(-1)?.init?.body));

describe('reset-password chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(resetPasswordMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const cases = runs.flatMap((run) =>
    minimalCover(resetPasswordMachine, run).map((path) => [describePath(path), path, run.input as ResetPasswordInput] as const),
  );

  // Each problem a password can have is replayed, so what the field says is checked for each: a chart
  // that said the wrong one makes the states after any of them alike, and a cover would take only one.
  it('the replayed paths meet each password problem (typed, and refused by the server)', () => {
    const met = cases.flatMap(([, path]) =>
      path.steps.flatMap((step) => {
        const event = step.event as EventObject & { password?: string; output?: { fieldErrors?: { password?: string } } };
        if (event.type === 'user.submitPassword') return [checkNewPassword(event.password)];
        return event.type === 'xstate.done.actor.changePassword' ? [event.output?.fieldErrors?.password ?? null] : [];
      }),
    );
    expect(new Set(met)).toEqual(new Set([null, ValidationMessage.passwordSpaces, ValidationMessage.passwordTooShort, ValidationMessage.passwordCommon]));
  });

  it.each(cases)(
    'path %s',
    async (_name, path, { thenSignIn, codeSentTo }) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          // A reload at step 2 finds the email its code was texted for in the history entry's state.
          const app = codeSentTo
            ? await renderApp('/reset-password/2', signedOut, { historyState: { resetCodeSentTo: codeSentTo } })
            : await renderApp(thenSignIn ? '/reset-password?then=signin' : '/reset-password');
          return { ...app, passwordProblem: null };
        },
        events: {
          'user.submitEmail': async (ctx, event) => {
            await fill(ctx, 'Email', String(event.email));
            await ctx.user.click(screen.getByRole('button', { name: 'Continue' }));
          },
          'user.submitCode': async ({ user }, event) => {
            const boxes = await screen.findAllByLabelText(/^Digit \d of 6$/);
            for (const box of boxes) await user.clear(box);
            await user.type(boxes[0]!, String(event.code));
            await user.click(screen.getByRole('button', { name: 'Verify' }));
          },
          'user.resendCode': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Send a new code' })),
          'user.submitSsn': async (ctx, event) => {
            await fill(ctx, 'Social Security number', String(event.ssn));
            await ctx.user.click(screen.getByRole('button', { name: 'Continue' }));
          },
          'user.submitPassword': async (ctx, event) => {
            await fill(ctx, 'New password', String(event.password));
            await ctx.user.click(screen.getByRole('button', { name: 'Change password' }));
            ctx.passwordProblem = checkNewPassword(String(event.password));
          },
          'user.goToStep': async ({ router }, event) => {
            await router.navigate({ to: '/reset-password/{-$step}', params: { step: String(event.step) }, search: (previous: Record<string, unknown>) => previous });
          },
          'xstate.after.untilRetry.resetPassword.code.waiting': async () => {
            await passServerWait();
            await waitFor(() => expect(screen.queryByText('Too many codes')).toBeNull());
          },
          'xstate.after.untilRetry.resetPassword.ssn.waiting': async () => {
            await passServerWait();
            await waitFor(() => expect(screen.queryByText('Too many tries')).toBeNull());
          },
          ...Object.fromEntries(
            Object.keys(pathOf).flatMap((id) => [
              [`xstate.done.actor.${id}`, answer],
              [`xstate.error.actor.${id}`, answer],
            ]),
          ),
          'xstate.done.actor.changePassword': async (ctx, event) => {
            await answer(ctx, event);
            // The server's finding on the password the app can say (a rule's message); others are no field problem.
            const finding = (event.output as { statusCode: number; fieldErrors?: Record<string, string> }).fieldErrors?.password;
            ctx.passwordProblem = finding !== undefined && (Object.values(ValidationMessage) as string[]).includes(finding) ? finding : null;
          },
        },
        states: [
          {
            when: (s) => s.matches({ email: 'editing' }),
            then: async ({ router }, s) => {
              expect(await screen.findByRole('heading', { name: 'Reset your password' })).toBeTruthy();
              expect(screen.getByText('Step 1 of 3')).toBeTruthy();
              expect(router.state.location.pathname).not.toMatch(/\/reset-password\/[234]$/);
              if (s.matches({ email: { editing: 'invalid' } })) {
                expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
                // Focus is on the field, so a screen reader reads it with its error (WCAG 2.2 SC 3.3.1).
                await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Email')));
              }
              const expected = s.matches({ email: { editing: 'codeExpired' } })
                ? 'Your code has expired. Please continue to get a new one.'
                : s.matches({ email: { editing: 'failed' } })
                  ? 'There was an unexpected error. Please try again.'
                  : s.matches({ email: { editing: 'tooManyLookups' } })
                    ? 'For your security, please wait 5 minutes before trying again.'
                    : '';
              await waitFor(() => expect(alertText()).toBe(expected));
            },
          },
          {
            when: (s) => s.matches({ email: 'sendingCode' }) || s.matches({ code: 'resendingCode' }),
            then: async (ctx, s) => {
              await waitFor(() => expect(ctx.cardApi.isWaiting(pathOf.sendResetCode!)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'ana@example.test' });
              // Send a new code let the focus go as it was pressed, not when the browser next draws: an
              // answer before that kept the focus on it (the first box did not take it).
              if (s.matches({ code: 'resendingCode' })) expect(document.activeElement?.textContent).not.toBe('Send a new code');
            },
          },
          {
            when: (s) => s.matches({ code: 'enteringCode' }),
            then: async ({ router, cardApi }, s) => {
              expect(await screen.findByRole('heading', { name: 'Enter your code' })).toBeTruthy();
              // Opened again at step 2: the code on its way is kept, no new one sent (it would void it).
              if (codeSentTo) expect(cardApi.requests.some((request) => request.path === pathOf.sendResetCode)).toBe(false);
              expect(screen.getByText('Step 2 of 3')).toBeTruthy();
              // Never says whether the email has an account.
              expect(screen.getByText('If an account uses ana@example.test, we texted a 6-digit code to its phone.')).toBeTruthy();
              await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password/2'));
              const expected = s.matches({ code: { enteringCode: 'invalid' } })
                ? 'Please enter the 6-digit code we texted you.'
                : s.matches({ code: { enteringCode: 'wrongCode' } })
                  ? "This isn't the right code. You can try 2 more times."
                  : s.matches({ code: { enteringCode: 'failed' } })
                    ? 'There was an unexpected error. Please try again.'
                    : '';
              await waitFor(() => expect(alertText()).toBe(expected));
              if (s.matches({ code: { enteringCode: 'invalid' } }) || s.matches({ code: { enteringCode: 'wrongCode' } })) {
                await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Digit 1 of 6')));
              }
              // Never says whether the email has an account, for a new code either.
              expect(newCodeNotice()).toBe(
                s.matches({ code: { enteringCode: 'resent' } }) ? 'If an account uses ana@example.test, we texted a new code to its phone.' : '',
              );
            },
          },
          {
            when: (s) => s.matches({ code: 'verifyingCode' }),
            then: async (ctx) => {
              await waitFor(() => expect(ctx.cardApi.isWaiting(pathOf.verifyResetCode!)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'ana@example.test', code: '123456' });
            },
          },
          {
            when: (s) => s.matches({ code: 'waiting' }),
            then: async () => {
              await waitFor(() => expect(alertText()).toBe(`Too many codesFor your security, please wait ${serverWaitMinutes} minutes before asking for a new code.`));
              expect(screen.queryByRole('button', { name: 'Send a new code' })).toBeNull();
              // The button pressed went with the form: the heading has the focus, the notice under it.
              expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Enter your code' }));
            },
          },
          {
            when: (s) => s.matches({ ssn: 'editing' }),
            then: async ({ router }, s) => {
              await expectSsnStepShown(s);
              await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password/2'));
            },
          },
          {
            when: (s) => s.matches({ ssn: 'verifying' }),
            then: async (ctx) => {
              await waitFor(() => expect(ctx.cardApi.isWaiting(pathOf.verifySsn!)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'ana@example.test', ssn: '123456789', mfaToken: 'mfa-token-1' });
            },
          },
          {
            when: (s) => s.matches({ ssn: 'waiting' }),
            then: expectSsnWait,
          },
          {
            when: (s) => s.matches({ password: 'editing' }),
            then: async (ctx, s) => {
              const { router } = ctx;
              expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();
              await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password/3'));
              // For password managers, the form names its account (hidden): the email as sent, trimmed.
              const account = screen.getByLabelText('New password').closest('form')!.querySelector<HTMLInputElement>('input[autocomplete="username"]');
              expect(account?.value).toBe('ana@example.test');
              expect(account?.hidden).toBe(true);
              const rule = 'Use at least 8 characters, with no spaces.';
              if (s.matches({ password: { editing: 'invalid' } })) {
                const text = {
                  'password.spaces': 'Password cannot contain spaces.',
                  'password.tooShort': 'Password must be at least 8 characters.',
                  'password.common': 'This password is too common, too easy to guess or has appeared in a data breach. Please choose another one.',
                }[String(ctx.passwordProblem)];
                expect(text).toBeDefined();
                expect(await screen.findByText(text!)).toBeTruthy();
                // The server's refusal too (password.common): the focus goes from the button to the field.
                await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('New password')));
                // Read with the field: its rule, then what is wrong.
                expect(descriptionOf(screen.getByLabelText('New password'))).toBe(`${rule} ${text}`);
              } else {
                expect(descriptionOf(screen.getByLabelText('New password'))).toBe(rule);
              }
              const expected = s.matches({ password: { editing: 'failed' } }) ? 'There was an unexpected error. Please try again.' : '';
              await waitFor(() => expect(alertText()).toBe(expected));
            },
          },
          {
            when: (s) => s.matches({ password: 'changing' }),
            then: async (ctx) => {
              await waitFor(() => expect(ctx.cardApi.isWaiting(pathOf.changePassword!)).toBe(true));
              expect(lastBody(ctx)).toEqual({ email: 'ana@example.test', ssn: '123456789', password: 'NewPass2026', mfaToken: 'mfa-token-1' });
            },
          },
          {
            when: (s) => s.matches('done'),
            then: async (ctx) => {
              const { router } = ctx;
              expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeTruthy();
              await expectTabTitle('Password changed');
              expect(screen.getByText('Your password has been changed.')).toBeTruthy();
              await waitFor(() => expect(router.state.location.pathname).toBe('/reset-password/4'));
              // Its Sign in hands the account's email over: not typed a third time (WCAG 2.2 SC 3.3.7).
              await ctx.user.click(screen.getByRole('link', { name: 'Sign in' }));
              expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'ana@example.test');
            },
          },
          {
            when: (s) => s.matches('backToSignIn'),
            then: async ({ router }) => {
              await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
              expect(await screen.findByText('Your password has been changed. Please sign in with your new password.')).toBeTruthy();
              // The account's email comes back with it, not typed again (WCAG 2.2 SC 3.3.7).
              expect(screen.getByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'ana@example.test');
            },
          },
        ],
      });
    },
    30_000,
  );
});

describe('between sign-in and the reset', () => {
  it('keeps the email typed on sign-in for the way Back, without loading sign-in again on the way out (WCAG 2.2 SC 3.3.7)', async () => {
    const { user, router } = await renderApp('/signin');
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ana@example.test');
    const loads: string[] = [];
    const stop = router.subscribe('onResolved', (event) => loads.push(event.toLocation.pathname));
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reset your password' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'ana@example.test');
    router.history.back();
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'ana@example.test');
    stop();
    expect(loads).toEqual(['/reset-password', '/signin']);
    cleanup();

    // Only that entry: sign-in opened afresh (another page, the auth modal) shows no email typed back then.
    await renderApp('/signin');
    expect(await screen.findByRole('textbox', { name: 'Email' })).toHaveProperty('value', '');
  });

  it('takes the email typed on the reset back to sign-in with "Back to sign in" (WCAG 2.2 SC 3.3.7)', async () => {
    const { user } = await renderApp('/reset-password');
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'ana@example.test');
    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveProperty('value', 'ana@example.test');
  });
});
