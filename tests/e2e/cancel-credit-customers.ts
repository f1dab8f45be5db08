/**
 * Customers with a weekly plan billed for this month, for the journey "a cancellation with notice
 * showing and giving the credit" (tests/e2e/cancel-credit.spec.ts), made by
 * tests/e2e/seed-cancel-credit-customers.ts before the test server starts. The journey cancels the
 * plan, so each JavaScript setting and attempt has its own customer.
 */
export const CANCEL_CREDIT_PASSWORD = "e2e-cancel-credit-password";
export const CANCEL_CREDIT_JOURNEYS = ["js", "nojs"] as const;
export const CANCEL_CREDIT_ATTEMPTS = 3;
/** The plan's service day is the first weekday at least this many days ahead: after the notice. */
export const CANCEL_CREDIT_DAYS_AHEAD = 2;

export function cancelCreditCustomer(journey: (typeof CANCEL_CREDIT_JOURNEYS)[number], attempt: number) {
  return {
    email: `e2e-cancel-credit-${journey}-${attempt}@example.com`,
    password: CANCEL_CREDIT_PASSWORD,
    fullName: `Cancel Credit Customer ${journey} ${attempt}`,
  };
}

export const allCancelCreditCustomers = () =>
  CANCEL_CREDIT_JOURNEYS.flatMap((journey) =>
    Array.from({ length: CANCEL_CREDIT_ATTEMPTS }, (_, i) => cancelCreditCustomer(journey, i)),
  );
