import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { hashPassword } from "../../app/features/accounts/password.server";
import { allBillingCustomers, BILLING_CUSTOMER_PASSWORD, BILLING_INVOICE_CENTS } from "./billing-customers";

/**
 * The billing journeys' customers (tests/e2e/billing-customers.ts), each with one open invoice
 * without a plan (so the server's billing run, which bills plans, leaves them alone). Idempotent:
 * a customer who has their invoice is skipped. Called by seed-test-admins.ts.
 */
export async function seedBillingCustomers(db: Kysely<Database>) {
  const passwordHash = await hashPassword(BILLING_CUSTOMER_PASSWORD);
  for (const customer of allBillingCustomers()) {
    let user = await db.selectFrom("users").select("id").where("email", "=", customer.email).executeTakeFirst();
    if (!user) {
      user = await db
        .insertInto("users")
        .values({ email: customer.email, password_hash: passwordHash, email_verified_at: new Date() })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("profiles").values({ user_id: user.id, full_name: customer.fullName }).execute();
    }
    const has = await db
      .selectFrom("invoices")
      .select("id")
      .where("number", "=", customer.invoiceNumber)
      .executeTakeFirst();
    if (has) continue;
    const invoice = await db
      .insertInto("invoices")
      .values({
        number: customer.invoiceNumber,
        customer_id: user.id,
        plan_id: null,
        period_month: "2026-11-01",
        status: "open",
        issued_on: "2026-11-01",
        due_on: "2026-11-01",
        total_cents: BILLING_INVOICE_CENTS,
        footer: "Thank you for choosing Swift Scoop.",
        // The customer journeys' card payment failed (docs/decisions/104): their Billing page says
        // so, and the admin's Billing tab lists them under "Failed payments".
        ...(customer.failedPayment
          ? {
              charge_attempts: 1,
              first_failed_at: new Date("2026-11-01T17:00:00Z"),
              last_failed_at: new Date("2026-11-01T17:00:00Z"),
              last_failure_reason: "Your card was declined.",
            }
          : {}),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (customer.failedPayment) {
      // The failed try as the collection job records it (the seed leaves no automatic try due).
      await db
        .insertInto("invoice_charge_failures")
        .values({
          invoice_id: invoice.id,
          attempt: 1,
          payment_intent_id: null,
          reason: "Your card was declined.",
          failed_at: new Date("2026-11-01T17:00:00Z"),
        })
        .execute();
    }
    await db
      .insertInto("invoice_lines")
      .values({
        invoice_id: invoice.id,
        kind: "one_time_service",
        description: "Yard Refresh Pro on Nov 2, 2026",
        amount_cents: BILLING_INVOICE_CENTS,
      })
      .execute();
  }
}
