/**
 * US business days for card delivery (spec §9, contract/shared/businessDays.ts), on real calendars:
 * the federal holidays of OPM's published lists, with their Saturday → Friday and Sunday → Monday
 * observed dates.
 */
import { describe, expect, it } from 'vitest';
import { addBusinessDays, cardDeliveryWindow, isBusinessDay, isFederalHoliday } from '../../contract/shared/businessDays.ts';

describe('isFederalHoliday', () => {
  it('knows the eleven federal holidays of 2026 as observed (OPM)', () => {
    const holidays2026 = [
      '2026-01-01', // New Year's Day
      '2026-01-19', // Martin Luther King, Jr.
      '2026-02-16', // Washington's Birthday
      '2026-05-25', // Memorial Day
      '2026-06-19', // Juneteenth
      '2026-07-03', // Independence Day (July 4 is a Saturday)
      '2026-09-07', // Labor Day
      '2026-10-12', // Columbus Day
      '2026-11-11', // Veterans Day
      '2026-11-26', // Thanksgiving Day
      '2026-12-25', // Christmas Day
    ];
    for (const day of holidays2026) expect(isFederalHoliday(day), day).toBe(true);

    const allOf2026 = Array.from({ length: 365 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    expect(allOf2026.filter(isFederalHoliday)).toEqual(holidays2026);
  });

  it('observes a Saturday holiday on the Friday before, and a Sunday one on the Monday after', () => {
    expect(isFederalHoliday('2026-07-04')).toBe(false);
    expect(isFederalHoliday('2026-07-03')).toBe(true);
    // Christmas 2027 is a Saturday.
    expect(isFederalHoliday('2027-12-24')).toBe(true);
    // Juneteenth 2022 was a Sunday: observed Monday June 20.
    expect(isFederalHoliday('2022-06-20')).toBe(true);
    // New Year's Day 2023 was a Sunday: observed Monday January 2.
    expect(isFederalHoliday('2023-01-02')).toBe(true);
  });

  it("observes New Year's Day on December 31 of the year before when it is a Saturday", () => {
    expect(isFederalHoliday('2027-12-31')).toBe(true); // January 1, 2028 is a Saturday
    expect(isFederalHoliday('2021-12-31')).toBe(true); // January 1, 2022 was one too
    expect(isFederalHoliday('2026-12-31')).toBe(false);
  });

  it('refuses what is not a calendar day', () => {
    expect(() => isFederalHoliday('2026-02-30')).toThrow(RangeError);
    expect(() => isFederalHoliday('11/25/2026')).toThrow(RangeError);
  });
});

describe('isBusinessDay', () => {
  it('is Monday to Friday, holidays excluded', () => {
    expect(isBusinessDay('2026-11-25')).toBe(true); // Wednesday
    expect(isBusinessDay('2026-11-26')).toBe(false); // Thanksgiving
    expect(isBusinessDay('2026-11-28')).toBe(false); // Saturday
    expect(isBusinessDay('2026-11-29')).toBe(false); // Sunday
  });
});

describe('addBusinessDays', () => {
  it('never counts the day itself, and skips Thanksgiving 2026', () => {
    expect(addBusinessDays('2026-11-25', 0)).toBe('2026-11-25');
    expect(addBusinessDays('2026-11-25', 1)).toBe('2026-11-27');
    expect(addBusinessDays('2026-11-28', 1)).toBe('2026-11-30'); // ordered on a Saturday
  });

  it('refuses a negative or fractional count', () => {
    expect(() => addBusinessDays('2026-11-25', -1)).toThrow(RangeError);
    expect(() => addBusinessDays('2026-11-25', 1.5)).toThrow(RangeError);
  });
});

describe('cardDeliveryWindow (10 to 15 business days)', () => {
  it('an order on Wednesday 2026-11-25 skips Thanksgiving: December 10 to 17', () => {
    expect(cardDeliveryWindow('2026-11-25')).toEqual({ earliest: '2026-12-10', latest: '2026-12-17' });
  });

  it('an order on Wednesday 2026-07-01 skips the observed Independence Day (Friday July 3): July 16 to 23', () => {
    expect(cardDeliveryWindow('2026-07-01')).toEqual({ earliest: '2026-07-16', latest: '2026-07-23' });
  });

  it('an order on Friday 2027-12-17 skips Christmas (observed the 24th) and New Year 2028 (observed the 31st)', () => {
    expect(cardDeliveryWindow('2027-12-17')).toEqual({ earliest: '2028-01-04', latest: '2028-01-11' });
  });

  it('an order on an ordinary Monday takes two weeks and three weeks', () => {
    expect(cardDeliveryWindow('2026-03-02')).toEqual({ earliest: '2026-03-16', latest: '2026-03-23' });
  });
});
