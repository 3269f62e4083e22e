import { describe, expect, it } from 'vitest';
import { maskAccountNumber } from '../../src/shared/format/account.ts';

describe('maskAccountNumber', () => {
  it('keeps only the last 4 characters, whatever the length (home says "Account ending in 5678")', () => {
    expect(maskAccountNumber('12345678')).toBe('5678');
    expect(maskAccountNumber('4111111111115678')).toBe('5678');
    expect(maskAccountNumber('123456789012345678901234')).toBe('1234');
  });

  it('keeps letters, as the last 4 are characters, not digits', () => {
    expect(maskAccountNumber('PRN00AB12CD')).toBe('12CD');
  });

  it('returns inputs of 4 characters or fewer as they are', () => {
    expect(maskAccountNumber('5678')).toBe('5678');
    expect(maskAccountNumber('78')).toBe('78');
    expect(maskAccountNumber('')).toBe('');
  });

  it('trims surrounding whitespace', () => {
    expect(maskAccountNumber('  12345678 ')).toBe('5678');
    expect(maskAccountNumber(' 5678 ')).toBe('5678');
    expect(maskAccountNumber('   ')).toBe('');
  });
});
