/**
 * Customers whose plan was paused for the first two weeks of last month, for the journey "a paused
 * month's credit on the next invoice" (tests/e2e/paused-month.spec.ts), made by
 * tests/e2e/seed-paused-month-customers.ts before the test server starts. One per JavaScript
 * setting and attempt; the journey only reads, but a retry gets a fresh customer all the same.
 */
export const PAUSED_MONTH_PASSWORD = "e2e-paused-month-password";
export const PAUSED_MONTH_JOURNEYS = ["js", "nojs"] as const;
export const PAUSED_MONTH_ATTEMPTS = 3;

export function pausedMonthCustomer(journey: (typeof PAUSED_MONTH_JOURNEYS)[number], attempt: number) {
  return {
    email: `e2e-paused-month-${journey}-${attempt}@example.com`,
    password: PAUSED_MONTH_PASSWORD,
    fullName: `Paused Month Customer ${journey} ${attempt}`,
  };
}

export const allPausedMonthCustomers = () =>
  PAUSED_MONTH_JOURNEYS.flatMap((journey) =>
    Array.from({ length: PAUSED_MONTH_ATTEMPTS }, (_, i) => pausedMonthCustomer(journey, i)),
  );

/** "2026-12-01" for any day of December 2026. */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** The first of the month `months` before (negative) or after the month of `day`. */
export function shiftMonth(day: string, months: number): string {
  const date = new Date(`${monthOf(day)}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}
