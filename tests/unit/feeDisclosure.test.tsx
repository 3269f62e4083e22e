/** The fee disclosure before the agreements (src/shared/agreements/FeeDisclosure.tsx) says what the ledger charges. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FeeDisclosure } from '../../src/shared/agreements/FeeDisclosure.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

async function renderIn(locale: 'en' | 'es') {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <FeeDisclosure />
    </I18nProvider>,
  );
}

/** The short form's row (the long form, folded below it, repeats it). */
const rowOf = (name: string) => screen.getAllByRole('rowheader', { name })[0]!.closest('tr')!;

afterEach(cleanup);
afterAll(() => activateLocale('en'));

describe('FeeDisclosure', () => {
  it('states the cash reload fee of spec §9, $3.50 charged after the load arrives, in English', async () => {
    await renderIn('en');
    expect(within(rowOf('Cash reload')).getByRole('cell').textContent).toBe('$3.50');
    expect(document.body.textContent).toContain('The cash reload fee is charged after your cash arrives in your account.');
    expect(document.body.textContent).not.toMatch(/up to|store/i);
  });

  it('states it in Spanish too', async () => {
    await renderIn('es');
    expect(within(rowOf('Recarga en efectivo')).getByRole('cell').textContent).toBe('$3.50');
    expect(document.body.textContent).toContain('El cargo por recarga en efectivo se cobra después de que su efectivo llega a su cuenta.');
  });
});
