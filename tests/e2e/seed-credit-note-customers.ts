import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { hashPassword } from "../../app/features/accounts/password.server";
import { recordPayment, recordRefund } from "../../app/features/billing/payments.server";
import { allCreditNoteCustomers, CREDIT_NOTE_PASSWORD } from "./credit-note-customers";

const MAIL_CONTEXT = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://127.0.0.1",
};

/**
 * The credit-note journey's customers (tests/e2e/credit-note-customers.ts), through the real
 * workflow: an $89.00 invoice without a plan, paid in cash, then $20.00 of it refunded, which
 * issues the refund's credit note (docs/decisions/113). Idempotent: a customer whose invoice
 * exists is skipped. Called by seed-test-admins.ts.
 */
export async function seedCreditNoteCustomers(db: Kysely<Database>) {
  const passwordHash = await hashPassword(CREDIT_NOTE_PASSWORD);
  const now = new Date("2026-11-05T18:00:00Z");
  for (const customer of allCreditNoteCustomers()) {
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
        total_cents: 8900,
        footer: "Thank you for choosing Swift Scoop.",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("invoice_lines")
      .values({
        invoice_id: invoice.id,
        kind: "one_time_service",
        description: "Swift Dash on Nov 2, 2026",
        amount_cents: 8900,
      })
      .execute();
    await recordPayment(db, {
      invoiceId: invoice.id,
      method: "cash",
      amountCents: 8900,
      paidOn: "2026-11-03",
      note: null,
      recordedBy: null,
      idempotencyKey: `e2e-credit-note-payment:${invoice.id}`,
      now,
      context: MAIL_CONTEXT,
    });
    const payment = await db
      .selectFrom("payments")
      .select("id")
      .where("invoice_id", "=", invoice.id)
      .executeTakeFirstOrThrow();
    await recordRefund(db, {
      invoiceId: invoice.id,
      paymentId: payment.id,
      amountCents: 2000,
      refundedOn: "2026-11-05",
      note: "A corner was missed",
      recordedBy: null,
      idempotencyKey: `e2e-credit-note-refund:${invoice.id}`,
      now,
    });
  }
}
