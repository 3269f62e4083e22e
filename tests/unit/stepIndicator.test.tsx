/** The step indicator: "Step N of M" as text, one list item per step, the current one marked. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StepIndicator } from '../../src/shared/components/StepIndicator.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

async function show(current: number, total?: number, locale: 'en' | 'es' = 'en') {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <StepIndicator current={current} total={total} />
    </I18nProvider>,
  );
  return within(screen.getByRole('list', { name: locale === 'en' ? 'Progress' : 'Progreso' })).getAllByRole('listitem');
}

describe('StepIndicator', () => {
  it('says which step of five and marks it as the current step', async () => {
    const items = await show(3);
    expect(screen.getByText('Step 3 of 5')).toBeTruthy();
    expect(items).toHaveLength(5);
    expect(items.map((item) => item.getAttribute('aria-current'))).toEqual([null, null, 'step', null, null]);
  });

  it('names every step for screen readers: done, current, or still to come', async () => {
    const items = await show(2);
    expect(items.map((item) => item.textContent)).toEqual(['Step 1, done', 'Step 2, current', 'Step 3', 'Step 4', 'Step 5']);
  });

  it('takes another number of steps', async () => {
    const items = await show(1, 3);
    expect(screen.getByText('Step 1 of 3')).toBeTruthy();
    expect(items).toHaveLength(3);
    expect(items[0]!.getAttribute('aria-current')).toBe('step');
  });

  it('speaks Spanish', async () => {
    const items = await show(5, 5, 'es');
    expect(screen.getByText('Paso 5 de 5')).toBeTruthy();
    expect(items[4]!.textContent).toBe('Paso 5, actual');
    await activateLocale('en');
  });
});
