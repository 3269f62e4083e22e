import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatMonth, formatTime } from '../../src/shared/format/date.ts';
import { onEasternTime } from '../../src/shared/format/easternTime.ts';

/** The device's time zone: Node reads TZ again whenever it changes; every test puts it back (files share a process). */
function onDeviceIn(timeZone: string) {
  vi.stubEnv('TZ', timeZone);
}
beforeEach(() => onDeviceIn('America/New_York'));
afterEach(() => vi.unstubAllEnvs());

const AFTERNOON = '2026-11-22T20:05:00Z'; // 3:05 PM in New York (EST, UTC-5)

/** What Intl writes on a device in `timeZone`, with the no-break spaces some ICU versions use made plain. */
function intl(locale: 'en-US' | 'es-US', options: Intl.DateTimeFormatOptions, instant: Date, timeZone: string) {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(instant).replace(/[\u202F\u00A0]/g, ' ');
}

describe('formatDate', () => {
  it('formats a short English date', () => {
    expect(formatDate(AFTERNOON, 'en')).toBe('Nov 22, 2026');
  });

  it('formats a short Spanish date', () => {
    expect(formatDate(AFTERNOON, 'es')).toBe('22 nov 2026');
  });

  it("picks the day on the device's calendar", () => {
    const lateEvening = '2026-11-23T03:30:00Z'; // Nov 22, 10:30 PM in New York
    expect(formatDate(lateEvening, 'en')).toBe('Nov 22, 2026');
    onDeviceIn('UTC');
    expect(formatDate(lateEvening, 'en')).toBe('Nov 23, 2026');
    onDeviceIn('Asia/Tokyo');
    expect(formatDate(lateEvening, 'en')).toBe('Nov 23, 2026');
  });

  it('accepts offsets and fractional seconds', () => {
    expect(formatDate('2026-01-05T09:00:00.123-05:00', 'en')).toBe('Jan 5, 2026');
  });

  it('shows a date-only string as that calendar day in every time zone', () => {
    for (const zone of ['America/New_York', 'Pacific/Honolulu', 'Pacific/Kiritimati', 'UTC']) {
      onDeviceIn(zone);
      expect(formatDate('2026-11-22', 'en')).toBe('Nov 22, 2026');
      expect(formatDate('2026-11-22', 'es')).toBe('22 nov 2026');
    }
  });

  it('names every month as Intl does in US English and US Spanish', () => {
    for (let month = 0; month < 12; month++) {
      const instant = new Date(Date.UTC(2026, month, 9, 17));
      for (const [locale, tag] of [['en', 'en-US'], ['es', 'es-US']] as const) {
        expect(formatDate(instant.toISOString(), locale)).toBe(intl(tag, { year: 'numeric', month: 'short', day: 'numeric' }, instant, 'America/New_York'));
      }
    }
  });

  it("writes the date out in a Spanish sentence, every month as Intl's long form does; English keeps its medium form", () => {
    for (let month = 0; month < 12; month++) {
      const instant = new Date(Date.UTC(2026, month, 9, 17));
      expect(formatDate(instant.toISOString(), 'es', 'sentence')).toBe(intl('es-US', { year: 'numeric', month: 'long', day: 'numeric' }, instant, 'America/New_York'));
      expect(formatDate(instant.toISOString(), 'en', 'sentence')).toBe(intl('en-US', { year: 'numeric', month: 'short', day: 'numeric' }, instant, 'America/New_York'));
    }
    expect(formatDate('2026-12-08', 'es', 'sentence')).toBe('8 de diciembre de 2026');
  });

  it('agrees with Intl for any instant in any of these time zones', () => {
    const zones = ['America/New_York', 'America/Los_Angeles', 'America/Puerto_Rico', 'Pacific/Honolulu', 'America/Anchorage', 'UTC', 'Asia/Kolkata'];
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }), fc.constantFrom(...zones), (instant, zone) => {
        onDeviceIn(zone);
        for (const [locale, tag] of [['en', 'en-US'], ['es', 'es-US']] as const) {
          expect(formatDate(instant.toISOString(), locale)).toBe(intl(tag, { year: 'numeric', month: 'short', day: 'numeric' }, instant, zone));
          expect(formatTime(instant.toISOString(), locale)).toBe(intl(tag, { hour: 'numeric', minute: '2-digit' }, instant, zone));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('rejects empty and invalid input with a RangeError', () => {
    expect(() => formatDate('', 'en')).toThrow(RangeError);
    expect(() => formatDate('not a date', 'en')).toThrow(RangeError);
    expect(() => formatDate('2026-13-45', 'en')).toThrow(RangeError);
  });
});

describe('formatTime', () => {
  it('formats English hour and minute', () => {
    expect(formatTime(AFTERNOON, 'en')).toBe('3:05 PM');
    expect(formatTime('2026-11-22T14:00:00Z', 'en')).toBe('9:00 AM');
  });

  it('formats midnight and noon on a 12-hour clock', () => {
    expect(formatTime('2026-11-22T05:00:00Z', 'en')).toBe('12:00 AM');
    expect(formatTime('2026-11-22T17:00:00Z', 'en')).toBe('12:00 PM');
    expect(formatTime('2026-11-22T05:00:00Z', 'es')).toBe('12:00 a.m.');
    expect(formatTime('2026-11-22T17:00:00Z', 'es')).toBe('12:00 p.m.');
  });

  it('formats Spanish hour and minute', () => {
    expect(formatTime(AFTERNOON, 'es')).toBe('3:05 p.m.');
  });

  it('writes every hour of the day as Intl does', () => {
    for (let hour = 0; hour < 24; hour++) {
      const instant = new Date(Date.UTC(2026, 10, 22, hour + 5, 7)); // hour:07 in New York
      for (const [locale, tag] of [['en', 'en-US'], ['es', 'es-US']] as const) {
        expect(formatTime(instant.toISOString(), locale)).toBe(intl(tag, { hour: 'numeric', minute: '2-digit' }, instant, 'America/New_York'));
      }
    }
  });

  it("follows daylight saving time on the device's clock", () => {
    expect(formatTime('2026-07-04T19:05:00Z', 'en')).toBe('3:05 PM'); // EDT, UTC-4
  });

  it('rejects empty and invalid input with a RangeError', () => {
    expect(() => formatTime('', 'en')).toThrow(RangeError);
    expect(() => formatTime('25:99', 'en')).toThrow(RangeError);
  });
});

describe('formatMonth', () => {
  it('writes a month in English, the same as a heading and in a sentence', () => {
    expect(formatMonth('2026-11', 'en', 'heading')).toBe('November 2026');
    expect(formatMonth('2026-11', 'en', 'sentence')).toBe('November 2026');
  });

  it('writes a month in Spanish, capitalised only as a heading', () => {
    expect(formatMonth('2026-11', 'es', 'sentence')).toBe('noviembre de 2026');
    expect(formatMonth('2026-11', 'es', 'heading')).toBe('Noviembre de 2026');
  });

  it('names every month as Intl does', () => {
    for (let month = 1; month <= 12; month++) {
      const key = `2026-${String(month).padStart(2, '0')}`;
      const instant = new Date(`${key}-01T00:00:00Z`);
      expect(formatMonth(key, 'en', 'sentence')).toBe(intl('en-US', { month: 'long', year: 'numeric' }, instant, 'UTC'));
      expect(formatMonth(key, 'es', 'sentence')).toBe(intl('es-US', { month: 'long', year: 'numeric' }, instant, 'UTC'));
    }
  });

  it('rejects what is not a month with a RangeError', () => {
    for (const month of ['', '2026-13', '2026-00', '2026-1', 'November', '2026-11-01']) {
      expect(() => formatMonth(month, 'en', 'heading'), month).toThrow(RangeError);
    }
  });
});

describe('onEasternTime', () => {
  it("is true where the phone keeps New York's standard and daylight time, false elsewhere", () => {
    for (const [timeZone, eastern] of [
      ['America/New_York', true],
      ['America/Detroit', true],
      ['America/Chicago', false],
      ['America/Los_Angeles', false],
      // No daylight time: 5 hours behind UTC all year, as New York only in winter.
      ['America/Panama', false],
      ['UTC', false],
    ] as const) {
      onDeviceIn(timeZone);
      expect(onEasternTime(), timeZone).toBe(eastern);
    }
  });
});
