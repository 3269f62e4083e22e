/**
 * US business days (spec §9: a physical card arrives in 10 to 15 business days): Monday to Friday,
 * less the 11 federal holidays (5 U.S.C. 6103) on the days they are observed: a holiday on a Saturday
 * is observed the Friday before, one on a Sunday the Monday after (so New Year's Day 2028, a
 * Saturday, is observed on Friday 2027-12-31). Dates are calendar days 'YYYY-MM-DD', with no time zone.
 */

/** A calendar day as days since 1970-01-01 (UTC arithmetic, so no daylight-saving surprises). */
const dayNumber = (year: number, month: number, day: number) => Date.UTC(year, month - 1, day) / 86_400_000;

const isoOf = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);

/** 0 Sunday … 6 Saturday. */
const weekdayOf = (days: number) => new Date(days * 86_400_000).getUTCDay();

function parseDay(date: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const days = match ? dayNumber(Number(match[1]), Number(match[2]), Number(match[3])) : Number.NaN;
  if (!match || isoOf(days) !== date) throw new RangeError(`Not a calendar day 'YYYY-MM-DD': ${date}`);
  return days;
}

/** The `nth` (1-based) `weekday` of a month; nth -1 is the last one. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): number {
  if (nth > 0) {
    const first = dayNumber(year, month, 1);
    return first + ((weekday - weekdayOf(first) + 7) % 7) + (nth - 1) * 7;
  }
  const last = dayNumber(year, month + 1, 0);
  return last - ((weekdayOf(last) - weekday + 7) % 7);
}

/** Saturday → the Friday before, Sunday → the Monday after. */
function observed(days: number): number {
  const weekday = weekdayOf(days);
  return weekday === 6 ? days - 1 : weekday === 0 ? days + 1 : days;
}

const [monday, thursday] = [1, 4];

/** The federal holidays of a year, as observed (New Year's Day of the next year may fall in this one: see isFederalHoliday). */
function holidaysOf(year: number): number[] {
  return [
    observed(dayNumber(year, 1, 1)), // New Year's Day
    nthWeekday(year, 1, monday, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 2, monday, 3), // Washington's Birthday
    nthWeekday(year, 5, monday, -1), // Memorial Day
    observed(dayNumber(year, 6, 19)), // Juneteenth National Independence Day
    observed(dayNumber(year, 7, 4)), // Independence Day
    nthWeekday(year, 9, monday, 1), // Labor Day
    nthWeekday(year, 10, monday, 2), // Columbus Day
    observed(dayNumber(year, 11, 11)), // Veterans Day
    nthWeekday(year, 11, thursday, 4), // Thanksgiving Day
    observed(dayNumber(year, 12, 25)), // Christmas Day
  ];
}

const holidayCache = new Map<number, Set<number>>();

function isHolidayDay(days: number): boolean {
  const year = new Date(days * 86_400_000).getUTCFullYear();
  let holidays = holidayCache.get(year);
  if (!holidays) {
    // The next New Year's Day, when it is a Saturday, is observed on this year's December 31.
    holidays = new Set([...holidaysOf(year), observed(dayNumber(year + 1, 1, 1))]);
    holidayCache.set(year, holidays);
  }
  return holidays.has(days);
}

/** Whether the day is a federal holiday as observed ('2026-07-03' is: July 4, 2026 is a Saturday). */
export const isFederalHoliday = (date: string): boolean => isHolidayDay(parseDay(date));

const isBusinessDayNumber = (days: number) => weekdayOf(days) !== 0 && weekdayOf(days) !== 6 && !isHolidayDay(days);

/** Monday to Friday and not a federal holiday as observed. */
export const isBusinessDay = (date: string): boolean => isBusinessDayNumber(parseDay(date));

/**
 * The `count`-th business day after `date` (the day itself never counts, business day or not):
 * addBusinessDays('2026-11-25', 1) is '2026-11-27', Thanksgiving (the 26th) skipped.
 */
export function addBusinessDays(date: string, count: number): string {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`A number of business days: ${count}`);
  let days = parseDay(date);
  for (let left = count; left > 0; ) {
    days += 1;
    if (isBusinessDayNumber(days)) left -= 1;
  }
  return isoOf(days);
}

/**
 * US Eastern time (New York): the program's calendar. The card processor counts an order's, a
 * shipment's and a delivery's day by it, and a statement's month is a month of it.
 */
export const usEasternTimeZone = 'America/New_York';

/** Built on first use: Intl formats are costly to build, and lists of cards ask for many days. */
let easternDay: Intl.DateTimeFormat | undefined;

/**
 * The calendar day of an instant in US Eastern time, 'YYYY-MM-DD': the day the card processor counts
 * an order, a shipment or a delivery on (the card API and the app count the same way).
 */
export function usCalendarDay(instant: Date): string {
  easternDay ??= new Intl.DateTimeFormat('en-CA', { timeZone: usEasternTimeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return easternDay.format(instant);
}

/** Spec §9: a physical card (new or a replacement) arrives in 10 to 15 business days after the order day. */
export const cardDeliveryBusinessDays = { earliest: 10, latest: 15 } as const;

/** The window a card ordered on `orderDay` should arrive in. */
export function cardDeliveryWindow(orderDay: string): { earliest: string; latest: string } {
  return {
    earliest: addBusinessDays(orderDay, cardDeliveryBusinessDays.earliest),
    latest: addBusinessDays(orderDay, cardDeliveryBusinessDays.latest),
  };
}
