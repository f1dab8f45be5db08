import { sql, type Kysely } from "kysely";

/**
 * The "Pay now" Checkout sessions made for an invoice (docs/decisions/111), kept so that each one
 * still open is expired at Stripe when the invoice settles another way (the card on file, a
 * payment by hand, a void), and so that one whose payment the bank is still processing holds the
 * collection's off-session charge and the admin's "Charge" back.
 *  - closed_at: no longer payable (paid, expired, failed); null while it may still take money;
 *  - processing_since: completed at Stripe with the payment still at the bank (a debit), until
 *    its PaymentIntent succeeds or fails.
 * Timestamps rather than a status column: no list of values to freeze (decision 003).
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("stripe_checkout_sessions")
    .addColumn("id", "text", (c) => c.primaryKey().check(sql`id ~ '^cs_[0-9A-Za-z_]{1,250}$'`))
    .addColumn("invoice_id", "uuid", (c) => c.notNull().references("invoices.id").onDelete("cascade"))
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("payment_intent_id", "text", (c) => c.check(sql`payment_intent_id ~ '^pi_[0-9A-Za-z_]{1,200}$'`))
    .addColumn("processing_since", "timestamptz")
    .addColumn("closed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The settling path and the in-flight check read an invoice's sessions still open, only.
  await sql`create index stripe_checkout_sessions_open_idx on stripe_checkout_sessions (invoice_id)
    where closed_at is null`.execute(db);
  await sql`create index stripe_checkout_sessions_intent_idx on stripe_checkout_sessions (payment_intent_id)
    where payment_intent_id is not null`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("stripe_checkout_sessions").execute();
}
