/** Generated path tests over the reset-unlock-code chart, replayed against the real app and router. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventObject } from 'xstate';
import { resetUnlockCodeMachine } from '../../machines/session/resetUnlockCode.ts';
import { newUnlockCodeErrors, type NewUnlockCodeErrors, type NewUnlockCodes } from '../../machines/shared/newUnlockCode.ts';
import { coverageOf, describePath, minimalCover, replayPath } from '../support/chartCoverage.ts';
import { descriptionOf } from '../support/description.ts';
import { generateListedPaths } from '../support/listedPaths.ts';
import { alertText, locked, renderApp, expectTabTitle } from '../support/renderApp.tsx';
import { passServerWait, serverWaitSeconds } from '../support/replayClock.ts';
import { expectSsnStepShown, expectSsnWait } from '../support/ssnStep.ts';

const ssnPath = '/api/v1/verify/ssn/logged-in-refresh-token';
const resetPath = '/api/v1/reset-unlock-code';
/** An event for a generated run (any fields). */
const listed = (event: EventObject & Record<string, unknown>): EventObject => event;
const done = (id: string, output: Record<string, unknown>) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('no statusCode') });
const validSsn = { type: 'user.submitSsn', ssn: '123-45-6789' };
const newCode = { type: 'user.submitCode', unlockCode: '2468', unlockCodeConfirmation: '2468' };
const obviousCode = { type: 'user.submitCode', unlockCode: '1234', unlockCodeConfirmation: '1234' };
const mismatchedCode = { type: 'user.submitCode', unlockCode: '2468', unlockCodeConfirmation: '2469' };
const ssnVerified = done('verifySsn', { statusCode: 0, ssnToken: 'ssn-token-1' });

const runs = [
  generateListedPaths(resetUnlockCodeMachine, [
    validSsn,
    listed({ type: 'user.submitSsn', ssn: '12' }),
    ssnVerified,
    done('verifySsn', { statusCode: 4, attemptsLeft: 2 }),
    done('verifySsn', { statusCode: 201, retryAfterSeconds: serverWaitSeconds }),
    done('verifySsn', { statusCode: 5 }),
    failed('verifySsn'),
    { type: 'xstate.after.untilRetry.resetUnlockCode.ssn.waiting' },
  ]),
  generateListedPaths(resetUnlockCodeMachine, [
    validSsn,
    ssnVerified,
    newCode,
    obviousCode,
    mismatchedCode,
    listed({ type: 'user.goToStep', step: 1 }),
    done('resetUnlockCode', { statusCode: 0, access: 'access-7', refresh: 'refresh-7', isInternal: true }),
    done('resetUnlockCode', { statusCode: 4 }),
    // The SSN check ran out (10 minutes) before the code was saved: back to the SSN, saying why.
    done('resetUnlockCode', { statusCode: 4, fieldErrors: { ssnToken: 'ssnToken.unverified' } }),
    done('resetUnlockCode', { statusCode: 5 }),
    failed('resetUnlockCode'),
    { type: 'user.continue' },
  ]),
  // Codes that do not match, on their own: the run above covers the same transition with the obvious one.
  generateListedPaths(resetUnlockCodeMachine, [validSsn, ssnVerified, mismatchedCode]),
];

type Ctx = Awaited<ReturnType<typeof renderApp>> & {
  /** The new code's fields with a problem, as the replay caused them: the app's rules applied to what was typed (never the chart's context). */
  problems: NewUnlockCodeErrors;
};
const pathOf: Record<string, string> = { verifySsn: ssnPath, resetUnlockCode: resetPath };

async function answer({ cardApi }: Ctx, event: { type: string; output?: unknown }) {
  const path = pathOf[event.type.split('.').at(-1)!]!;
  await waitFor(() => expect(cardApi.isWaiting(path)).toBe(true));
  if (event.type.startsWith('xstate.error')) return cardApi.fail(path);
  const output = event.output as { statusCode: number };
  cardApi.answer(path, output, output.statusCode === 0 ? 200 : output.statusCode === 201 ? 429 : output.statusCode === 5 ? 500 : 401);
}

async function fill({ user }: Ctx, label: string, value: string) {
  const input = await screen.findByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
}

describe('reset-unlock-code chart', () => {
  it('generated paths reach every state and transition', () => {
    expect(coverageOf(resetUnlockCodeMachine, runs)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  const cover = runs.flatMap((run) => minimalCover(resetUnlockCodeMachine, run));
  // Each problem a new code can have is replayed, so what the form says is checked for each: a chart
  // that said the wrong one makes the states after either alike, and a cover would take only one.
  it('the replayed paths type an obvious code and codes that do not match', () => {
    const typed = cover.flatMap((path) =>
      path.steps.flatMap((step) => (step.event.type === 'user.submitCode' ? [Object.keys(newUnlockCodeErrors(step.event as unknown as NewUnlockCodes)).join()] : [])),
    );
    expect(new Set(typed)).toEqual(new Set(['', 'unlockCode', 'unlockCodeConfirmation']));
  });

  it.each(cover.map((path) => [describePath(path), path] as const))(
    'path %s',
    async (_name, path) => {
      await replayPath<Ctx>(path, {
        start: async () => ({ ...(await renderApp('/reset-unlock-code?redirect=%2Fstatements', locked)), problems: {} }),
        events: {
          'user.submitSsn': async (ctx, event) => {
            await fill(ctx, 'Social Security number', String(event.ssn));
            await ctx.user.click(screen.getByRole('button', { name: 'Continue' }));
          },
          'user.submitCode': async (ctx, event) => {
            await fill(ctx, 'New unlock code', String(event.unlockCode));
            await fill(ctx, 'Confirm new unlock code', String(event.unlockCodeConfirmation));
            await ctx.user.click(screen.getByRole('button', { name: 'Save unlock code' }));
            ctx.problems = newUnlockCodeErrors({ unlockCode: String(event.unlockCode), unlockCodeConfirmation: String(event.unlockCodeConfirmation) });
          },
          'user.continue': async ({ user }) => user.click(await screen.findByRole('button', { name: 'Continue' })),
          'user.goToStep': async ({ router }, event) => {
            await router.navigate({ to: '/reset-unlock-code/{-$step}', params: { step: String(event.step) }, search: (previous: Record<string, unknown>) => previous });
          },
          'xstate.after.untilRetry.resetUnlockCode.ssn.waiting': async () => {
            await passServerWait();
            await waitFor(() => expect(screen.queryByText('Too many tries')).toBeNull());
          },
          ...Object.fromEntries(runs.flatMap((run) => run.paths.flatMap((p) => p.steps.map((step) => step.event.type))).filter((type) => type.startsWith('xstate.done') || type.startsWith('xstate.error')).map((type) => [type, answer])),
        },
        states: [
          {
            when: (s) => s.matches({ ssn: 'editing' }),
            then: async ({ router }, s) => {
              await expectSsnStepShown(s);
              expect(router.state.location.pathname).not.toBe('/reset-unlock-code/2');
            },
          },
          {
            when: (s) => s.matches({ ssn: 'verifying' }),
            then: async ({ cardApi }) => {
              await waitFor(() => expect(cardApi.isWaiting(ssnPath)).toBe(true));
              const request = cardApi.requests.at(-1)!;
              expect(JSON.parse(String(request.init?.body))).toEqual({ ssn: '123456789' });
              expect(new Headers(request.init?.headers).get('authorization')).toBe('Bearer refresh-1');
            },
          },
          {
            when: (s) => s.matches({ ssn: 'waiting' }),
            then: expectSsnWait,
          },
          {
            when: (s) => s.matches({ code: 'editing' }),
            then: async ({ router, session, problems }, s) => {
              expect(await screen.findByRole('heading', { name: 'Choose a new unlock code' })).toBeTruthy();
              await waitFor(() => expect(router.state.location.pathname).toBe('/reset-unlock-code/2'));
              expect(JSON.stringify(session.getSnapshot().context)).not.toContain('123456789');
              if (s.matches({ code: { editing: 'invalid' } })) {
                // What was typed has a problem: the new code's, else the confirmation's.
                expect(problems.unlockCode ?? problems.unlockCodeConfirmation).toBeDefined();
                expect(
                  await screen.findByText(
                    problems.unlockCode ? 'This code is easy to guess. Please choose another one.' : "The unlock codes don't match.",
                  ),
                ).toBeTruthy();
                // Focus is on the field in error, so a screen reader reads it with its error.
                const inError = screen.getByLabelText(problems.unlockCode ? 'New unlock code' : 'Confirm new unlock code');
                await waitFor(() => expect(document.activeElement).toBe(inError));
              } else {
                // The new code's rule is read with its field.
                expect(descriptionOf(screen.getByLabelText('New unlock code'))).toBe('Your unlock code is 4 digits. Avoid codes that are easy to guess, like 1234 or 1111.');
                const expected = s.matches({ code: { editing: 'refused' } })
                  ? "We couldn't save this unlock code. Please choose another one."
                  : s.matches({ code: { editing: 'failed' } })
                    ? 'There was an unexpected error. Please try again.'
                    : '';
                await waitFor(() => expect(alertText()).toBe(expected));
              }
            },
          },
          {
            when: (s) => s.matches({ code: 'resetting' }),
            then: async ({ cardApi }) => {
              expect((await screen.findByRole('button', { name: 'Saving…' })).getAttribute('aria-disabled')).toBe('true');
              await waitFor(() => expect(cardApi.isWaiting(resetPath)).toBe(true));
              const request = cardApi.requests.at(-1)!;
              expect(JSON.parse(String(request.init?.body))).toEqual({ ssnToken: 'ssn-token-1', unlockCode: '2468' });
              expect(new Headers(request.init?.headers).get('authorization')).toBe('Bearer refresh-1');
            },
          },
          {
            when: (s) => s.matches('reset'),
            then: async ({ router, session }) => {
              // The confirmation first: the session is stored, the screen stays until Continue.
              expect(await screen.findByRole('heading', { name: 'Unlock code changed' })).toBeTruthy();
              await expectTabTitle('Unlock code changed');
              expect(within(screen.getByRole('main')).getByRole('status').textContent).toBe('Your unlock code has been changed. Use it the next time the app asks for your unlock code.');
              expect(router.state.location.pathname).toBe('/reset-unlock-code/2');
              expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('aria-disabled')).toBe('false');
              expect(session.getSnapshot().context).toMatchObject({ accessToken: 'access-7', refreshToken: 'refresh-7', isInternal: true });
            },
          },
          {
            when: (s) => s.matches('continued'),
            then: async ({ router }) => {
              await waitFor(() => expect(router.state.location.pathname).toBe('/statements'));
            },
          },
        ],
      });
    },
    30_000,
  );
});
