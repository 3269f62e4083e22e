/** What the texted-code form (src/shared/textedCode/TextedCodeEntry.tsx) says, as a user reads it. */
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * The paragraph that says where a code went ("We texted a 6-digit code to (202) 201-0143."). Its phone
 * number is a piece of its own that never wraps (styles.css `.nowrap`): at 360 px it broke at the hyphen.
 */
export async function findPhoneSentence(sentence: string, phone: string): Promise<HTMLElement> {
  const paragraph = await screen.findByText((_, element) => element?.tagName === 'P' && element.textContent === sentence);
  expect(within(paragraph).getByText(phone).className).toBe('nowrap');
  return paragraph;
}

/** The form's live status: "We sent you a new code." after Send a new code, else empty. */
export function newCodeNotice(): string {
  const form = screen.getByRole('group', { name: 'Texted code' }).closest('form')!;
  return within(form).getByRole('status').textContent ?? '';
}
