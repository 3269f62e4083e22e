/**
 * How a transaction is said (src/shared/activity/TransactionText.tsx): a fee by its fee's name, in the
 * reader's language, and in the same words as the statement PDF (server/features/statements/statementText.ts).
 */
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { render } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { type Transaction, transactionKinds } from '../../contract/activity/types.ts';
import { fees } from '../../contract/shared/fees.ts';
import { statementText } from '../../server/features/statements/statementText.ts';
import { TransactionTitle } from '../../src/shared/activity/TransactionText.tsx';
import { activateLocale } from '../../src/shared/i18n/locale.ts';

async function title(transaction: Pick<Transaction, 'kind' | 'counterparty'>, locale: 'en' | 'es') {
  await activateLocale(locale);
  const { container, unmount } = render(
    <I18nProvider i18n={i18n}>
      <TransactionTitle transaction={transaction} />
    </I18nProvider>,
  );
  const text = container.textContent;
  unmount();
  return text;
}

afterAll(() => activateLocale('en'));

describe('TransactionTitle', () => {
  it('names a fee by its fee, in English and in Spanish', async () => {
    expect(await title({ kind: 'fee', counterparty: 'physicalCard' }, 'en')).toBe('Fee: Physical card');
    expect(await title({ kind: 'fee', counterparty: 'physicalCard' }, 'es')).toBe('Cargo: Tarjeta física');
    expect(await title({ kind: 'fee', counterparty: 'cardReplacement' }, 'es')).toBe('Cargo: Reemplazo de tarjeta');
    expect(await title({ kind: 'fee', counterparty: 'cashReload' }, 'es')).toBe('Cargo: Recarga en efectivo');
  });

  it('says a fee without a known code as it came, and one without any as a fee', async () => {
    expect(await title({ kind: 'fee', counterparty: 'Legacy fee' }, 'es')).toBe('Cargo: Legacy fee');
    expect(await title({ kind: 'fee', counterparty: null }, 'es')).toBe('Cargo');
  });

  it("names a fee's correction by the fee too, and a purchase's by its merchant", async () => {
    expect(await title({ kind: 'reversal', counterparty: 'physicalCard' }, 'en')).toBe('Correction: Physical card');
    expect(await title({ kind: 'reversal', counterparty: 'physicalCard' }, 'es')).toBe('Corrección: Tarjeta física');
    expect(await title({ kind: 'reversal', counterparty: 'Save Mart' }, 'es')).toBe('Corrección: Save Mart');
  });

  it('leaves a merchant named like a fee code alone', async () => {
    expect(await title({ kind: 'purchase', counterparty: 'monthly' }, 'en')).toBe('Purchase at monthly');
  });

  it('says every kind of transaction in the same words as the statement, in English and in Spanish', async () => {
    // The server cannot read the app's catalogues, so the statement keeps its own words; this holds the two together.
    const counterparties = [null, 'Save Mart', ...Object.keys(fees)];
    for (const locale of ['en', 'es'] as const) {
      for (const kind of transactionKinds) {
        for (const counterparty of counterparties) {
          expect(await title({ kind, counterparty }, locale), `${locale} ${kind} ${String(counterparty)}`).toBe(
            statementText[locale].kind(kind, counterparty),
          );
        }
      }
    }
  });
});
