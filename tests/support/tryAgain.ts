/** Presses a failure's Try again, as a keyboard user would find it. */
import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';

const heading = () => screen.getByRole('heading', { level: 1 });

/**
 * Presses the screen's Try again. It goes with its notice (a failure's, or the offline copy's), so the
 * focus must then be somewhere: on what `focusAfter` names for that button, by default the screen's
 * heading.
 */
export async function pressTryAgain(user: UserEvent, focusAfter: (button: HTMLElement) => HTMLElement = heading): Promise<void> {
  const button = await screen.findByRole('button', { name: 'Try again' });
  const expected = focusAfter(button);
  await user.click(button);
  expect(document.activeElement, 'the focus goes on from Try again').toBe(expected);
}
