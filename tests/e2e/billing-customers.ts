/**
 * Customers with one open invoice for the billing journeys (tests/e2e/billing.spec.ts), made by
 * tests/e2e/seed-billing-customers.ts before the test server starts. One per journey, JavaScript
 * setting and attempt: the admin's journey pays its invoice, so a retry takes the next one.
 */
export const BILLING_CUSTOMER_PASSWORD = "e2e-billing-password";
export const BILLING_JOURNEYS = ["customer-js", "customer-nojs", "admin-js", "admin-nojs", "phone"] as const;
export const BILLING_ATTEMPTS = 3;
/** The seeded invoice: one line of $89.00. */
export const BILLING_INVOICE_CENTS = 8900;

export function billingCustomer(journey: (typeof BILLING_JOURNEYS)[number], attempt: number) {
  const index = BILLING_JOURNEYS.indexOf(journey) * BILLING_ATTEMPTS + attempt;
  return {
    email: `e2e-billing-${journey}-${attempt}@example.com`,
    password: BILLING_CUSTOMER_PASSWORD,
    fullName: `Billing Customer ${journey} ${attempt}`,
    // Numbers from 900001 up: far above any the test server's own billing run would reach.
    invoiceNumber: `2026-${String(900_001 + index).padStart(6, "0")}`,
    /** The customer journeys' invoice has a failed card payment (docs/decisions/104). */
    failedPayment: journey.startsWith("customer-"),
  };
}

export const allBillingCustomers = () =>
  BILLING_JOURNEYS.flatMap((journey) =>
    Array.from({ length: BILLING_ATTEMPTS }, (_, i) => billingCustomer(journey, i)),
  );
