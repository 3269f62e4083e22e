/**
 * What the SSN step (machines/shared/ssnCheck.ts, "Verify your identity") shows in each of its states, for
 * the path tests of both resets (forgotten password, unlock code).
 */
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { alertText } from './renderApp.tsx';
import { serverWaitMinutes } from './replayClock.ts';

/** The SSN step is on screen, with the message its editing state means (a field error or an alert). */
export async function expectSsnStepShown(s: AnyMachineSnapshot): Promise<void> {
  expect(await screen.findByRole('heading', { name: 'Verify your identity' })).toBeTruthy();
  expect(screen.getByLabelText('Social Security number')).toBeTruthy();
  if (s.matches({ ssn: { editing: 'invalid' } })) {
    expect(await screen.findByText('Please enter a valid 9-digit Social Security number.')).toBeTruthy();
    // Focus is on the field, so a screen reader reads it with its error (WCAG 2.2 SC 3.3.1).
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Social Security number')));
  }
  const expected = s.matches({ ssn: { editing: 'mismatch' } })
    ? "That Social Security number doesn't match your account. You have 2 more tries."
    : s.matches({ ssn: { editing: 'failed' } })
      ? 'There was an unexpected error. Please try again.'
      : s.hasTag('ssnExpired')
        ? 'Your identity check has expired. Please enter your Social Security number again.'
        : '';
  await waitFor(() => expect(alertText()).toBe(expected));
}

/** The server's wait after too many wrong SSNs (`serverWaitSeconds` in the path tests), with Continue disabled. */
export async function expectSsnWait(): Promise<void> {
  await waitFor(() => expect(alertText()).toBe(`Too many triesFor your security, please wait ${serverWaitMinutes} minutes before trying again.`));
  expect(screen.getByRole('button', { name: 'Continue' }).getAttribute('aria-disabled')).toBe('true');
}
