/** Spec §5: a deposit is accepted only if the name on it matches the account holder (server/partners/payeeName.ts). */
import { describe, expect, it } from 'vitest';
import { achNameLength, payeeNameMatches } from '../../../server/partners/payeeName.ts';

const maria = { firstName: 'María', lastName: 'López Hernández' };

describe('payeeNameMatches', () => {
  it.each([
    'María López Hernández',
    'MARIA LOPEZ HERNANDEZ',
    'maria lopez',
    'MARIA HERNANDEZ',
    'LOPEZ, MARIA',
    'Lopez Hernandez, Maria G.',
    'MARIA G LOPEZ',
    'MARIA GUADALUPE LOPEZ HERNANDEZ',
    '  Maria   Lopez  ',
  ])('%s is María López Hernández', (payee) => {
    expect(payeeNameMatches(payee, maria)).toBe(true);
  });

  it.each([
    'Mario Lopez', // another first name
    'Maria Garcia', // another last name
    'Lopez Hernandez', // no first name
    'Maria', // no last name
    'M LOPEZ', // an initial is not the first name
    'MARIALOPEZ', // one word is neither
    '',
  ])('%s is not María López Hernández', (payee) => {
    expect(payeeNameMatches(payee, maria)).toBe(false);
  });

  it('reads hyphenated and apostrophe names whole and in parts', () => {
    const holder = { firstName: "Mary-Ann", lastName: "O'Neil-Smith" };
    for (const payee of ['MARY ANN ONEIL', 'MARYANN SMITH', 'Mary-Ann O’Neil-Smith', 'ONEILSMITH MARY', 'Mary O Neil'])
      expect(payeeNameMatches(payee, holder), payee).toBe(true);
    for (const payee of ['ANN SMITH', 'MARY O', 'MARY NEILSMITH']) expect(payeeNameMatches(payee, holder), payee).toBe(false);
  });

  it('needs more of a last name than its particles', () => {
    const holder = { firstName: 'Ana', lastName: 'De la Cruz' };
    for (const payee of ['ANA DE LA CRUZ', 'ANA DELACRUZ', 'Ana Cruz', 'CRUZ, ANA']) expect(payeeNameMatches(payee, holder), payee).toBe(true);
    for (const payee of ['ANA DE JESUS', 'ANA LA ROSA', 'ANA DE LA']) expect(payeeNameMatches(payee, holder), payee).toBe(false);
  });

  it('takes a last word cut at the ACH name field (22 characters) as the word it begins', () => {
    const holder = { firstName: 'Guadalupe', lastName: 'Villanueva' };
    const cut = 'GUADALUPE MARIA VILLAN';
    expect(cut).toHaveLength(achNameLength);
    expect(payeeNameMatches(cut, holder)).toBe(true);
    // Shorter than the field, the last word was written whole: VILLAN is not Villanueva.
    expect(payeeNameMatches('GUADALUPE VILLAN', holder)).toBe(false);
    // A cut word begins the holder's word, not another.
    expect(payeeNameMatches('GUADALUPE MARIA VILLAR', holder)).toBe(false);
    // Cut before the first name: the last name whole, the first name begun.
    expect(payeeNameMatches('VILLANUEVA-ORTIZ GUADA', holder)).toBe(true);
  });

  it("does not take a relative's initial, or one cut word, for the holder's name", () => {
    // 22 characters ending in a middle initial: José M. López Hernández, not María.
    expect('LOPEZ HERNANDEZ JOSE M').toHaveLength(achNameLength);
    expect(payeeNameMatches('LOPEZ HERNANDEZ JOSE M', maria)).toBe(false);
    expect(payeeNameMatches('ZZZZZZZZZZZZZZZZZZZZ S', { firstName: 'Sam', lastName: 'Smith' })).toBe(false);
    // One cut word is not both names.
    expect(payeeNameMatches('ZZZZZZZZZZZZZZZZZZ ANA', { firstName: 'Ana', lastName: 'Anaya' })).toBe(false);
  });
});
