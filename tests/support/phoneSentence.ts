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
