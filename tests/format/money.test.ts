import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars, formatSignedDollars } from '../../src/shared/format/money.ts';

describe('formatDollars', () => {
  it('formats with the dollar sign and grouping in English', () => {
    expect(formatDollars(123456)).toBe('$1,234.56');
    expect(formatDollars(1999)).toBe('$19.99');
    expect(formatDollars(5)).toBe('$0.05');
    expect(formatDollars(100)).toBe('$1.00');
  });

  it('formats zero, including negative zero, as $0.00', () => {
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(-0)).toBe('$0.00');
  });

  it('puts the minus sign before the dollar sign', () => {
    expect(formatDollars(-1200)).toBe('-$12.00');
    expect(formatDollars(-5)).toBe('-$0.05');
    expect(formatDollars(-123456)).toBe('-$1,234.56');
  });

  it('formats large amounts exactly, up to the largest safe integer', () => {
    expect(formatDollars(100_000_000_00)).toBe('$100,000,000.00');
    expect(formatDollars(Number.MAX_SAFE_INTEGER)).toBe('$90,071,992,547,409.91');
    expect(formatDollars(-Number.MAX_SAFE_INTEGER)).toBe('-$90,071,992,547,409.91');
    expect(formatDollars(9007199254740901)).toBe('$90,071,992,547,409.01');
  });

  it('writes every amount as Intl does in US English and US Spanish', () => {
    // Intl gets the decimal as a string, so amounts beyond a float's exact cents are compared exactly.
    const intl = ['en-US', 'es-US'].map((locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }));
    const asDecimal = (cents: bigint) => `${cents < 0n ? '-' : ''}${(cents < 0n ? -cents : cents) / 100n}.${String((cents < 0n ? -cents : cents) % 100n).padStart(2, '0')}`;
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1_000_000_00, max: 1_000_000_00 }), fc.maxSafeInteger().map((n) => -n), fc.maxSafeInteger()), (cents) => {
        for (const format of intl) {
          expect(formatDollars(cents)).toBe(format.format(asDecimal(BigInt(cents)) as `${number}`));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects non-integer and unsafe amounts with a RangeError', () => {
    expect(() => formatDollars(1.5)).toThrow(RangeError);
    expect(() => formatDollars(Number.NaN)).toThrow(RangeError);
    expect(() => formatDollars(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatDollars(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
  });
});

describe('formatCents', () => {
  it('uses the $d.cc form', () => {
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(50)).toBe('$0.50');
    expect(formatCents(99)).toBe('$0.99');
    expect(formatCents(100)).toBe('$1.00');
    expect(formatCents(1999)).toBe('$19.99');
  });

  it('does not group thousands', () => {
    expect(formatCents(123456)).toBe('$1234.56');
    expect(formatCents(100_000_000_00)).toBe('$100000000.00');
  });

  it('formats zero, including negative zero, as $0.00', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(-0)).toBe('$0.00');
  });

  it('puts the minus sign before the dollar sign', () => {
    expect(formatCents(-350)).toBe('-$3.50');
    expect(formatCents(-1)).toBe('-$0.01');
    expect(formatCents(-123456)).toBe('-$1234.56');
  });

  it('is exact where cents / 100 would drift', () => {
    // None of these dollar amounts is exact as a float; the last one even prints wrong via (cents / 100).toFixed(2).
    expect(formatCents(1999)).toBe('$19.99');
    expect(formatCents(1001)).toBe('$10.01');
    expect(formatCents(29)).toBe('$0.29');
    expect(formatCents(57)).toBe('$0.57');
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe('$90071992547409.91');
    expect(formatCents(Number.MIN_SAFE_INTEGER)).toBe('-$90071992547409.91');
    expect(formatCents(9007199254740901)).toBe('$90071992547409.01'); // (cents / 100).toFixed(2) gives "…409.02"
  });

  it('round-trips every amount from -$20.00 to $20.00 exactly', () => {
    for (let cents = -2000; cents <= 2000; cents++) {
      const text = formatCents(cents);
      expect(text).toMatch(/^-?\$\d+\.\d{2}$/);
      const digits = text.replace(/[$.]/g, '');
      expect(Number(digits)).toBe(cents === 0 ? 0 : cents);
    }
  });

  it('rejects non-integer and unsafe amounts with a RangeError', () => {
    expect(() => formatCents(0.5)).toThrow(RangeError);
    expect(() => formatCents(19.99)).toThrow(RangeError);
    expect(() => formatCents(-3.5)).toThrow(RangeError);
    expect(() => formatCents(Number.NaN)).toThrow(RangeError);
    expect(() => formatCents(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
    expect(() => formatCents(1e21)).toThrow(RangeError);
  });
});

describe('formatSignedDollars', () => {
  it('marks a credit with a plus and a debit with a minus, exactly', () => {
    expect(formatSignedDollars(48000)).toBe('+$480.00');
    expect(formatSignedDollars(-2315)).toBe('-$23.15');
    expect(formatSignedDollars(0)).toBe('$0.00');
    expect(formatSignedDollars(123456789)).toBe('+$1,234,567.89');
  });
});
