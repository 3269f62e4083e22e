/** How a statement names a transaction (server/features/statements/statementText.ts): a fee and its correction by the fee's name. */
import { describe, expect, it } from 'vitest';
import { statementText } from '../../../server/features/statements/statementText.ts';

describe('statementText.kind', () => {
  it('names a fee and its correction by the fee, in English and in Spanish', () => {
    expect(statementText.en.kind('fee', 'cashReload')).toBe('Fee: Cash reload');
    expect(statementText.es.kind('fee', 'cashReload')).toBe('Cargo: Recarga en efectivo');
    expect(statementText.en.kind('reversal', 'physicalCard')).toBe('Correction: Physical card');
    expect(statementText.es.kind('reversal', 'physicalCard')).toBe('Corrección: Tarjeta física');
  });

  it("names a purchase's correction by its merchant", () => {
    expect(statementText.en.kind('reversal', 'Save Mart')).toBe('Correction: Save Mart');
    expect(statementText.es.kind('reversal', null)).toBe('Corrección');
  });
});
