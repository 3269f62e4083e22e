/** Generated path tests over the change-unlock-code chart (Manage account), replayed against the real app and router. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor as waitForState } from 'xstate';
import { checkChangedUnlockCode, currentUnlockCodeChecks, fieldErrors, ValidationMessage } from '../../contract/rules.ts';
import { StatusCode } from '../../contract/shared/statusCodes.ts';
import { changeUnlockCodeMachine } from '../../machines/account/changeUnlockCode.ts';
import { newUnlockCodeErrors } from '../../machines/shared/newUnlockCode.ts';
import { ApiUnavailableError, AuthRequiredError } from '../../src/shared/api/client.ts';
import { coverageOf, describePath, generatePaths, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { descriptionOf } from '../support/description.ts';
import { active, alertText, renderApp } from '../support/renderApp.tsx';

const setPath = '/api/v1/set-unlock-code';
const goodCode = { type: 'user.submit', currentUnlockCode: '2580', unlockCode: '2468', unlockCodeConfirmation: '2468' };
const events = [
  goodCode,
  { type: 'user.submit', currentUnlockCode: '2580', unlockCode: '1234', unlockCodeConfirmation: '1234' },
  { type: 'user.submit', currentUnlockCode: '2580', unlockCode: '2468', unlockCodeConfirmation: '2469' },
  // The current code is not 4 digits: said on its own field, and nothing is sent.
  { type: 'user.submit', currentUnlockCode: '25', unlockCode: '2468', unlockCodeConfirmation: '2468' },
  { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 0 } },
  { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 4, fieldErrors: { unlockCode: 'unlockCode.obvious' } } },
  // A wrong current code, with attempts left; then the last one (every session has ended on the server).
  { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 101, attemptsLeft: 3 } },
  { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 101, attemptsLeft: 0 } },
  { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 5 } },
  { type: 'xstate.error.actor.setUnlockCode', error: new Error('no statusCode') },
];

const refusedWithoutFieldError = { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 4 } };
const refusedCurrentCode = { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 4, fieldErrors: { currentUnlockCode: 'unlockCode.invalid' } } };
// The current code typed as the new one: nothing would change, so nothing is sent.
const sameCode = { type: 'user.submit', currentUnlockCode: '2580', unlockCode: '2580', unlockCodeConfirmation: '2580' };
const oneAttemptLeft = { type: 'xstate.done.actor.setUnlockCode', output: { statusCode: 101, attemptsLeft: 1 } };

const runs = [
  generatePaths(changeUnlockCodeMachine, events),
  // A refusal without a field error the app knows: the general refusal shows on the field instead.
  generatePaths(changeUnlockCodeMachine, [goodCode, refusedWithoutFieldError]),
  // The server's finding on the current code shows on that field; one attempt left is said in the singular.
  generatePaths(changeUnlockCodeMachine, [goodCode, refusedCurrentCode]),
  generatePaths(changeUnlockCodeMachine, [goodCode, oneAttemptLeft]),
  generatePaths(changeUnlockCodeMachine, [sameCode]),
];
type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  /** The form as first rendered: it must be the same element throughout (never unmounted). */
  form: HTMLFormElement;
  /** What the user last typed, which must still be there after a call that got no answer. */
  typed: Typed | null;
  /**
   * The fields with a problem, as the replay caused them (never read from the chart's context): the
   * app's rules applied to what was typed, or the server's findings it can say.
   */
  problems: Partial<Record<'currentUnlockCode' | 'unlockCode', unknown>>;
  /** The attempts left the last wrong current code was answered with. */
  attemptsLeft: number | null;
};
type Typed = { currentUnlockCode: string; unlockCode: string; unlockCodeConfirmation: string };
const emptyForm: Typed = { currentUnlockCode: '', unlockCode: '', unlockCodeConfirmation: '' };

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const typedValues = (): Typed => ({
  currentUnlockCode: input('Current unlock code').value,
  unlockCode: input('New unlock code').value,
  unlockCodeConfirmation: input('Confirm new unlock code').value,
});
const statusOfHttp: Record<number, number> = { 0: 200, 4: 400, 5: 500, 101: 401 };
const unlockCodeInvalid = 'Please enter your 4-digit unlock code.';

async function fill({ user }: Ctx, label: string, value: string) {
  const field = input(label);
  await user.clear(field);
  if (value) await user.type(field, value);
}

describe('change-unlock-code chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(changeUnlockCodeMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it.each(runs.flatMap((run) => minimalCover(changeUnlockCodeMachine, run)).map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => {
          const app = await renderApp('/manage-account', active);
          const heading = await screen.findByRole('heading', { level: 1, name: 'Manage account' });
          await waitFor(() => expect(document.activeElement).toBe(heading));
          return { ...app, form: screen.getByRole('button', { name: 'Save unlock code' }).closest('form')!, typed: null, problems: {}, attemptsLeft: null };
        },
        events: {
          'user.submit': async (ctx, event) => {
            ctx.typed = {
              currentUnlockCode: String(event.currentUnlockCode),
              unlockCode: String(event.unlockCode),
              unlockCodeConfirmation: String(event.unlockCodeConfirmation),
            };
            await fill(ctx, 'Current unlock code', ctx.typed.currentUnlockCode);
            await fill(ctx, 'New unlock code', ctx.typed.unlockCode);
            await fill(ctx, 'Confirm new unlock code', ctx.typed.unlockCodeConfirmation);
            await ctx.user.click(screen.getByRole('button', { name: 'Save unlock code' }));
            ctx.problems = { ...fieldErrors(currentUnlockCodeChecks, { currentUnlockCode: ctx.typed.currentUnlockCode }), ...newUnlockCodeErrors(ctx.typed) };
            const unchanged = checkChangedUnlockCode(ctx.typed.currentUnlockCode, ctx.typed.unlockCode);
            if (Object.keys(ctx.problems).length === 0 && unchanged) ctx.problems = { unlockCode: unchanged };
          },
          'xstate.done.actor.setUnlockCode': async (ctx, event) => {
            const answer = event.output as { statusCode: number; attemptsLeft?: number; fieldErrors?: Record<string, string> };
            await waitFor(() => expect(ctx.cardApi.isWaiting(setPath)).toBe(true));
            ctx.cardApi.answer(setPath, answer, statusOfHttp[answer.statusCode] ?? 400);
            // The server's findings the app can say (a rule's message); others leave the general refusal.
            const sayable = Object.entries(answer.fieldErrors ?? {}).filter(([, key]) => (Object.values(ValidationMessage) as string[]).includes(key));
            if (answer.statusCode === 4) ctx.problems = Object.fromEntries(sayable);
            if (answer.statusCode === 101) ctx.attemptsLeft = answer.attemptsLeft ?? null;
          },
          'xstate.error.actor.setUnlockCode': async ({ cardApi, session }) => {
            await waitFor(() => expect(cardApi.isWaiting(setPath)).toBe(true));
            cardApi.fail(setPath);
            // The app's error modal says it; the modal is closed so the next step starts clean.
            await waitFor(() => expect(session.getSnapshot().matches({ errorModal: 'open' })).toBe(true));
            session.send({ type: 'user.closeErrorModal' });
          },
        },
        states: [
          {
            when: (s) => s.matches('editing'),
            then: async (ctx, s) => {
              const { router, form } = ctx;
              expect(router.state.location.pathname).toBe('/manage-account');
              expect(screen.getByRole('heading', { level: 2, name: 'Change your unlock code' })).toBeTruthy();
              expect(form.isConnected).toBe(true);
              const button = await screen.findByRole('button', { name: 'Save unlock code' });
              expect(button.getAttribute('aria-disabled')).toBe('false');
              expect(form.getAttribute('aria-busy')).toBe('false');
              expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/home');

              const { problems, attemptsLeft } = ctx;
              const codeError =
                s.matches({ editing: 'invalid' }) && problems.unlockCode
                  ? problems.unlockCode === ValidationMessage.unlockCodeUnchanged
                    ? 'This is already your unlock code. Please choose a different one.'
                    : 'This code is easy to guess. Please choose another one.'
                  : s.matches({ editing: 'refused' })
                    ? problems.unlockCode
                      ? 'This code is easy to guess. Please choose another one.'
                      : problems.currentUnlockCode
                        ? null
                        : "We couldn't save this unlock code. Please choose another one."
                    : null;
              const confirmationError = s.matches({ editing: 'mismatch' }) ? "The unlock codes don't match." : null;
              // The unlock screen's words, on the current code's own field.
              const currentCodeError = s.matches({ editing: 'wrongCurrentCode' })
                ? `This isn't the right code. ${attemptsLeft === 1 ? 'You have 1 more unlock attempt.' : `You have ${attemptsLeft} more unlock attempts.`}`
                : (s.matches({ editing: 'invalid' }) || s.matches({ editing: 'refused' })) && problems.currentUnlockCode
                  ? unlockCodeInvalid
                  : null;
              await waitFor(() => {
                expect(document.getElementById('current-unlock-code-error')?.textContent ?? null).toBe(currentCodeError);
                expect(document.getElementById('changed-unlock-code-error')?.textContent ?? null).toBe(codeError);
                expect(document.getElementById('confirm-changed-unlock-code-error')?.textContent ?? null).toBe(confirmationError);
              });
              // Each error is tied to its field: marked invalid and read out with it, after the new code's
              // rule, which is read with that field too (WCAG 2.2 SC 1.3.1).
              const rule = 'Your unlock code is 4 digits. Avoid codes that are easy to guess, like 1234 or 1111.';
              for (const [label, hint, error] of [
                ['Current unlock code', null, currentCodeError],
                ['New unlock code', rule, codeError],
                ['Confirm new unlock code', null, confirmationError],
              ] as const) {
                expect(input(label).getAttribute('aria-invalid')).toBe(error ? 'true' : null);
                expect(descriptionOf(input(label))).toBe([hint, error].filter(Boolean).join(' '));
              }
              // Focus is on the first field in error, so a screen reader reads it with its error.
              const firstInError = [
                ['Current unlock code', currentCodeError],
                ['New unlock code', codeError],
                ['Confirm new unlock code', confirmationError],
              ].find(([, error]) => error)?.[0];
              if (firstInError) await waitFor(() => expect(document.activeElement).toBe(input(firstInError)));
              expect(input('Current unlock code').getAttribute('type')).toBe('password');
              expect(input('Current unlock code').getAttribute('inputmode')).toBe('numeric');
              await waitFor(() =>
                expect(alertText()).toBe(s.matches({ editing: 'failed' }) ? 'There was an unexpected error. Please try again.' : ''),
              );

              const notice = within(screen.getByRole('main')).getByRole('status');
              if (s.matches({ editing: 'saved' })) {
                await waitFor(() => expect(notice.textContent).toBe('Your unlock code has been changed.'));
                expect(typedValues()).toEqual(emptyForm);
              } else {
                expect(notice.textContent).toBe('');
                // Nothing typed is lost: refused, wrong current code, failed, no answer at all (error modal, or re-authentication given up).
                expect(typedValues()).toEqual(ctx.typed ?? emptyForm);
              }
            },
          },
          {
            when: (s) => s.matches('saving'),
            then: async ({ cardApi, form, typed }) => {
              expect((await screen.findByRole('button', { name: 'Saving…' })).getAttribute('aria-disabled')).toBe('true');
              expect(form.isConnected).toBe(true);
              expect(form.getAttribute('aria-busy')).toBe('true');
              expect(typedValues()).toEqual(typed);
              await waitFor(() => expect(cardApi.isWaiting(setPath)).toBe(true));
              const request = cardApi.requests.at(-1)!;
              expect(request.init?.method).toBe('POST');
              expect(JSON.parse(String(request.init?.body))).toEqual({ currentUnlockCode: '2580', unlockCode: '2468' });
              expect(new Headers(request.init?.headers).get('authorization')).toBe('Bearer access-1');
            },
          },
          {
            // The last attempt was wrong: the server ended every session; the app asks for a sign-in over the screen.
            when: (s) => s.matches('signInRequired'),
            then: async ({ router, session }) => {
              const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
              expect(within(dialog).getByRole('status').textContent).toBe(
                'You entered a wrong unlock code too many times. Please sign in with your password, then choose a new unlock code.',
              );
              await waitFor(() => expect(router.state.location.maskedLocation?.pathname).toBe('/signin'));
              expect(session.getSnapshot().context).toMatchObject({ accessToken: null, refreshToken: null });
            },
          },
        ],
      });
    },
    30_000,
  );

  it.each([
    ['re-authentication was given up (AuthRequiredError)', new AuthRequiredError(StatusCode.REFRESH_REQUIRED)],
    ['no statusCode (ApiUnavailableError, the error modal says it)', new ApiUnavailableError('/set-unlock-code', null)],
  ])('goes back to editing with no error of its own when %s', async (_name, error) => {
    const actor = createActor(
      changeUnlockCodeMachine.provide({ actors: { setUnlockCode: fromPromise(() => Promise.reject(error)) } }),
    ).start();
    actor.send({ type: 'user.submit', currentUnlockCode: '2580', unlockCode: '2468', unlockCodeConfirmation: '2468' });
    const settled = await waitForState(actor, (s) => s.matches('editing'));
    expect(settled.value).toEqual({ editing: 'idle' });
    expect(settled.context.fieldErrors).toEqual({});
    actor.stop();
  });
});
