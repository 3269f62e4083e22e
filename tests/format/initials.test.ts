import { describe, expect, it } from 'vitest';
import { initials } from '../../src/shared/format/initials.ts';

describe('initials', () => {
  it('takes the first letter of the first and last words', () => {
    expect(initials('Maria Lopez')).toBe('ML');
    expect(initials('maria lopez')).toBe('ML');
    expect(initials('Ana María de la Cruz')).toBe('AC');
    expect(initials('John Ronald Reuel Tolkien')).toBe('JT');
  });

  it('takes the first and last letter of a single longer word', () => {
    expect(initials('Cher')).toBe('CR');
    expect(initials('Bob')).toBe('BB');
    expect(initials('madonna')).toBe('MA');
  });

  it('keeps names of two or fewer letters, uppercased', () => {
    expect(initials('Al')).toBe('AL');
    expect(initials('jo')).toBe('JO');
    expect(initials('J')).toBe('J');
    expect(initials('J R')).toBe('JR');
    expect(initials('J.R.')).toBe('JR');
  });

  it('ignores surrounding and repeated whitespace', () => {
    expect(initials('  Maria   Lopez  ')).toBe('ML');
    expect(initials('\tCher\n')).toBe('CR');
  });

  it('ignores punctuation', () => {
    expect(initials('J.R.R. Tolkien')).toBe('JT');
    expect(initials('Cher.')).toBe('CR');
    expect(initials("O'Brien")).toBe('ON');
    expect(initials('Maria - Lopez')).toBe('ML');
  });

  it('handles accented and non-Latin letters', () => {
    expect(initials('Ángel Núñez')).toBe('ÁN');
    expect(initials('A\u0301ngel N\u0303un\u0303ez')).toBe('ÁÑ'); // decomposed accents
    expect(initials('élodie')).toBe('ÉE');
    expect(initials('Иван Петров')).toBe('ИП');
  });

  it('returns an empty string when there are no letters', () => {
    expect(initials('')).toBe('');
    expect(initials('   ')).toBe('');
    expect(initials('...')).toBe('');
  });
});
