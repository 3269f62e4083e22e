/**
 * The program's calendar months, US Eastern time (contract/shared/businessDays.ts): the months that
 * statements cover and that the fee totals of statements and activity count (docs/decisions.md
 * "Statements"). A month is 'YYYY-MM'.
 */
import { usCalendarDay } from '../../contract/shared/businessDays.ts';

/** 'YYYY-MM' → [year, month 1-12]. */
const partsOf = (month: string): [number, number] => [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
const monthOf = (year: number, month: number) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;

/** The month of an instant in US Eastern time, 'YYYY-MM'. */
export const usMonthOf = (time: Date) => usCalendarDay(time).slice(0, 7);

/**
 * When a month begins: midnight US Eastern on its first day, 4 hours after UTC's (daylight time) or 5
 * (standard time); no daylight-saving change falls at a month's midnight. `monthStart('2026-12')` …
 * `monthStart` of the next month is the month.
 */
export const monthStart = (month: string) => {
  const [year, number] = partsOf(month);
  const firstDay = `${month}-01`;
  for (const hoursAfterUtc of [4, 5]) {
    const start = new Date(Date.UTC(year, number - 1, 1, hoursAfterUtc));
    if (usCalendarDay(start) === firstDay && usCalendarDay(new Date(start.getTime() - 1)) !== firstDay) return start;
  }
  throw new RangeError(`No midnight in US Eastern time begins ${month}`);
};

export const nextMonth = (month: string) => {
  const [year, number] = partsOf(month);
  return number === 12 ? monthOf(year + 1, 1) : monthOf(year, number + 1);
};

export const previousMonth = (month: string) => {
  const [year, number] = partsOf(month);
  return number === 1 ? monthOf(year - 1, 12) : monthOf(year, number - 1);
};
