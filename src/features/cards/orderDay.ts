/** Today in US Eastern time, 'YYYY-MM-DD': the day an order placed now counts from (the processor's, as the card API counts it). */
export function orderDayNow(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
