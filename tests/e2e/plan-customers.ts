/**
 * Customers with a weekly plan for the "Your Plan" journeys (tests/e2e/your-plan.spec.ts), made by
 * tests/e2e/seed-plan-customers.ts before the test server starts (the PGlite folder admits one
 * process at a time). One per journey and attempt: a journey ends by cancelling its plan, so a
 * retry signs in as the next one.
 */
export const PLAN_CUSTOMER_PASSWORD = "e2e-plan-password";
export const PLAN_JOURNEYS = ["js", "nojs"] as const;
export const PLAN_ATTEMPTS = 3;
/** The plan's first service day is the first weekday at least this many days after the seeding. */
export const PLAN_DAYS_AHEAD = 3;
export const PLAN_DOGS = 2;

export function planCustomer(journey: (typeof PLAN_JOURNEYS)[number], attempt: number) {
  return {
    email: `e2e-plan-${journey}-${attempt}@example.com`,
    password: PLAN_CUSTOMER_PASSWORD,
    fullName: `Plan Customer ${journey} ${attempt}`,
  };
}

export const allPlanCustomers = () =>
  PLAN_JOURNEYS.flatMap((journey) => Array.from({ length: PLAN_ATTEMPTS }, (_, i) => planCustomer(journey, i)));
