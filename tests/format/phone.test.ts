import { describe, expect, it } from 'vitest';
import { formatPhone } from '../../src/shared/format/phone.ts';

describe('formatPhone', () => {
  it('formats 10 digits', () => {
    expect(formatPhone('1234567890')).toBe('(123) 456-7890');
    expect(formatPhone('0000000000')).toBe('(000) 000-0000');
  });

  it('strips non-digits first', () => {
    expect(formatPhone('123-456-7890')).toBe('(123) 456-7890');
    expect(formatPhone('(123) 456-7890')).toBe('(123) 456-7890');
    expect(formatPhone(' 123.456.7890 ')).toBe('(123) 456-7890');
  });

  it('leaves out a +1 country code', () => {
    expect(formatPhone('+1 (123) 456-7890')).toBe('(123) 456-7890');
    expect(formatPhone('+11234567890')).toBe('(123) 456-7890');
  });

  it('returns anything that is not 10 digits unchanged', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('123456789')).toBe('123456789');
    expect(formatPhone('11234567890')).toBe('11234567890');
    expect(formatPhone('call me')).toBe('call me');
  });
});
