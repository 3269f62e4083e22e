import { describe, expect, it } from 'vitest';
import { formatDate, formatTime } from '../../src/shared/format/date.ts';

const NY = 'America/New_York';
const AFTERNOON = '2026-11-22T20:05:00Z'; // 3:05 PM in New York (EST, UTC-5)

describe('formatDate', () => {
  it('formats a short English date', () => {
    expect(formatDate(AFTERNOON, 'en', NY)).toBe('Nov 22, 2026');
  });

  it('formats a short Spanish date', () => {
    const text = formatDate(AFTERNOON, 'es', NY);
    expect(text).toMatch(/^22 nov\.? 2026$/);
  });

  it('uses the given time zone to pick the day', () => {
    const lateEvening = '2026-11-23T03:30:00Z'; // Nov 22, 10:30 PM in New York
    expect(formatDate(lateEvening, 'en', NY)).toBe('Nov 22, 2026');
    expect(formatDate(lateEvening, 'en', 'UTC')).toBe('Nov 23, 2026');
    expect(formatDate(lateEvening, 'en', 'Asia/Tokyo')).toBe('Nov 23, 2026');
  });

  it('accepts offsets and fractional seconds', () => {
    expect(formatDate('2026-01-05T09:00:00.123-05:00', 'en', NY)).toBe('Jan 5, 2026');
  });

  it('shows a date-only string as that calendar day in every time zone', () => {
    expect(formatDate('2026-11-22', 'en', NY)).toBe('Nov 22, 2026');
    expect(formatDate('2026-11-22', 'en', 'Pacific/Honolulu')).toBe('Nov 22, 2026');
    expect(formatDate('2026-11-22', 'en', 'Pacific/Kiritimati')).toBe('Nov 22, 2026');
    expect(formatDate('2026-11-22', 'en')).toBe('Nov 22, 2026');
  });

  it('defaults to the device time zone', () => {
    const expected = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }).format(
      new Date(AFTERNOON),
    );
    expect(formatDate(AFTERNOON, 'en')).toBe(expected.replace(/[\u202F\u00A0]/g, ' '));
  });

  it('never emits no-break spaces', () => {
    expect(formatDate(AFTERNOON, 'en', NY)).not.toMatch(/[\u202F\u00A0]/);
    expect(formatDate(AFTERNOON, 'es', NY)).not.toMatch(/[\u202F\u00A0]/);
  });

  it('rejects empty and invalid input with a RangeError', () => {
    expect(() => formatDate('', 'en', NY)).toThrow(RangeError);
    expect(() => formatDate('not a date', 'en', NY)).toThrow(RangeError);
    expect(() => formatDate('2026-13-45', 'en', NY)).toThrow(RangeError);
  });
});

describe('formatTime', () => {
  it('formats English hour and minute', () => {
    expect(formatTime(AFTERNOON, 'en', NY)).toBe('3:05 PM');
    expect(formatTime('2026-11-22T14:00:00Z', 'en', NY)).toBe('9:00 AM');
  });

  it('formats midnight and noon on a 12-hour clock', () => {
    expect(formatTime('2026-11-22T05:00:00Z', 'en', NY)).toBe('12:00 AM');
    expect(formatTime('2026-11-22T17:00:00Z', 'en', NY)).toBe('12:00 PM');
  });

  it('formats Spanish hour and minute', () => {
    expect(formatTime(AFTERNOON, 'es', NY)).toMatch(/^3:05 p\.\s?m\.$/);
  });

  it('follows daylight saving time in the given time zone', () => {
    expect(formatTime('2026-07-04T19:05:00Z', 'en', NY)).toBe('3:05 PM'); // EDT, UTC-4
  });

  it('uses plain spaces whatever the ICU version', () => {
    expect(formatTime(AFTERNOON, 'en', NY)).not.toMatch(/[\u202F\u00A0]/);
    expect(formatTime(AFTERNOON, 'es', NY)).not.toMatch(/[\u202F\u00A0]/);
  });

  it('defaults to the device time zone', () => {
    const expected = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date(AFTERNOON));
    expect(formatTime(AFTERNOON, 'en')).toBe(expected.replace(/[\u202F\u00A0]/g, ' '));
  });

  it('rejects empty and invalid input with a RangeError', () => {
    expect(() => formatTime('', 'en', NY)).toThrow(RangeError);
    expect(() => formatTime('25:99', 'en', NY)).toThrow(RangeError);
  });

  it('rejects an unknown time zone', () => {
    expect(() => formatTime(AFTERNOON, 'en', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});
