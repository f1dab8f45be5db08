/**
 * Customers with a refunded invoice, whose refund came with a credit note, for the journey "a
 * credit note's page" (tests/e2e/credit-note.spec.ts), made by
 * tests/e2e/seed-credit-note-customers.ts before the test server starts. One per JavaScript
 * setting and attempt; the journey only reads, but a retry gets a fresh customer all the same.
 */
export const CREDIT_NOTE_PASSWORD = "e2e-credit-note-password";
export const CREDIT_NOTE_JOURNEYS = ["js", "nojs"] as const;
export const CREDIT_NOTE_ATTEMPTS = 3;

export function creditNoteCustomer(journey: (typeof CREDIT_NOTE_JOURNEYS)[number], attempt: number) {
  const index = CREDIT_NOTE_JOURNEYS.indexOf(journey) * CREDIT_NOTE_ATTEMPTS + attempt;
  return {
    email: `e2e-credit-note-${journey}-${attempt}@example.com`,
    password: CREDIT_NOTE_PASSWORD,
    fullName: `Credit Note Customer ${journey} ${attempt}`,
    // Numbers from 950001 up: apart from the billing journeys' and the server's own run's.
    invoiceNumber: `2026-${String(950_001 + index).padStart(6, "0")}`,
  };
}

export const allCreditNoteCustomers = () =>
  CREDIT_NOTE_JOURNEYS.flatMap((journey) =>
    Array.from({ length: CREDIT_NOTE_ATTEMPTS }, (_, i) => creditNoteCustomer(journey, i)),
  );
