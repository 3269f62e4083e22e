/**
 * A form sent again with the same problem points at it again (WCAG 3.3.1, 4.1.3): after the button is
 * pressed the focus is on it, and moving it back to the field in error is what says the error to a
 * screen reader. The password and unlock-code resets kept the focus on the button the second time.
 */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { locked, renderApp } from '../../support/renderApp.tsx';

async function sendTwice(app: Awaited<ReturnType<typeof renderApp>>, field: HTMLElement, button: string) {
  for (const time of ['first', 'second']) {
    await app.user.click(screen.getByRole('button', { name: button }));
    await waitFor(() => expect(document.activeElement, `${time} time`).toBe(field));
  }
}

describe('the same problem sent again', () => {
  it("is pointed at again on the password reset's email step", async () => {
    const app = await renderApp('/reset-password');
    const email = await screen.findByLabelText('Email');
    await app.user.type(email, 'not-an-email');
    await sendTwice(app, email, 'Continue');
  });

  it("is pointed at again on the unlock-code reset's SSN step", async () => {
    const app = await renderApp('/reset-unlock-code', locked);
    const ssn = await screen.findByLabelText('Social Security number');
    await app.user.type(ssn, '12');
    await sendTwice(app, ssn, 'Continue');
  });
});
