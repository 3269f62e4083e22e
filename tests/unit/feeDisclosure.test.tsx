/** The fee disclosure before the agreements (src/shared/agreements/FeeDisclosure.tsx) says what the ledger charges. */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FeeDisclosure } from '../../src/shared/agreements/FeeDisclosure.tsx';
import { feeNames } from '../../src/shared/fees/feeNames.ts';
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

  // 12 CFR 1005.18(b)(4)(ii): the long form gives every fee with the conditions under which it is charged.
  const longFormRows = () =>
    within(screen.getByRole('group'))
      .getAllByRole('row')
      .map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent]);

  it("the long form says when each fee is charged: a damaged card's replacement costs $5.00, a lost or stolen card's is free", async () => {
    await renderIn('en');
    const rows = longFormRows();
    expect(rows).toContainEqual(['Card replacementTo replace a damaged card. A lost or stolen card is replaced free.', '$5.00']);
    expect(rows).toContainEqual(['Physical cardTo send you a physical card. Your virtual card is free.', '$5.00']);
    expect(rows).toContainEqual(["ATM withdrawal, out of networkFor each withdrawal at an ATM outside our network. The ATM's owner may charge a fee of its own.", '$2.50']);
    // Every fee that is not $0 says when it is charged; a $0 fee has nothing to say.
    for (const [name, amount] of rows) {
      const said = Object.values(feeNames).some((fee) => name === i18n._(fee));
      expect(said, `${name} ${amount}`).toBe(amount === '$0.00');
    }
  });

  it('says the conditions in Spanish too', async () => {
    await renderIn('es');
    expect(longFormRows()).toContainEqual([
      'Reemplazo de tarjetaPara reemplazar una tarjeta dañada. Una tarjeta perdida o robada se reemplaza sin costo.',
      '$5.00',
    ]);
  });
});
