import { sql, type Kysely } from "kysely";

/**
 * Paying with Stripe (issue 27 step 3, docs/decisions/103). The card stays at Stripe: here only
 * the customer's Stripe ids and what the page shows of the card (brand, last 4, expiry).
 *  - stripe_customers: one row per user who started to add a card or pay online;
 *  - stripe_events: each webhook event id once, so a replayed event changes nothing;
 *  - payments and refunds carry their Stripe ids, unique: a PaymentIntent is one payment and a
 *    Stripe refund one refund, whichever of the page, the charge job or a webhook records it first;
 *  - a dispute is marked on its payment for the admin;
 *  - stripe_payment_failures: the decline reason of each failed PaymentIntent, for the recovery
 *    of failed payments (issue 27 step 4) to pick up.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("stripe_customers")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("stripe_customer_id", "text", (c) =>
      c
        .notNull()
        .unique()
        .check(sql`stripe_customer_id ~ '^cus_[0-9A-Za-z]{1,200}$'`),
    )
    .addColumn("payment_method_id", "text", (c) =>
      c.check(sql`payment_method_id ~ '^(pm|card|src)_[0-9A-Za-z]{1,200}$'`),
    )
    .addColumn("card_brand", "text", (c) => c.check(sql`length(card_brand) between 1 and 40`))
    .addColumn("card_last4", "text", (c) => c.check(sql`card_last4 ~ '^[0-9]{4}$'`))
    .addColumn("card_exp_month", "integer", (c) => c.check(sql`card_exp_month between 1 and 12`))
    .addColumn("card_exp_year", "integer", (c) => c.check(sql`card_exp_year between 2000 and 9999`))
    // When Stripe made the SetupIntent that saved the card: a late event for an older card never
    // replaces a newer one.
    .addColumn("card_added_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // A card on file is whole: its id with everything the page shows, or nothing.
    .addCheckConstraint(
      "stripe_customers_card_check",
      sql`(payment_method_id is null) = (card_last4 is null)
        and (card_last4 is null) = (card_brand is null)
        and (card_brand is null) = (card_exp_month is null)
        and (card_exp_month is null) = (card_exp_year is null)
        and (card_exp_year is null) = (card_added_at is null)`,
    )
    .execute();

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey().check(sql`id ~ '^evt_[0-9A-Za-z_]{1,200}$'`))
    .addColumn("type", "text", (c) => c.notNull().check(sql`length(type) between 1 and 100`))
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index stripe_events_received_at_idx on stripe_events (received_at)`.execute(db);

  await db.schema
    .alterTable("payments")
    .addColumn("stripe_payment_intent_id", "text", (c) =>
      c.unique().check(sql`stripe_payment_intent_id ~ '^pi_[0-9A-Za-z_]{1,200}$'`),
    )
    .addColumn("disputed_at", "timestamptz")
    .addColumn("dispute_note", "text", (c) => c.check(sql`length(dispute_note) <= 500`))
    .execute();
  await sql`alter table payments add constraint payments_stripe_check
    check ((method = 'stripe') = (stripe_payment_intent_id is not null))`.execute(db);

  await db.schema
    .alterTable("refunds")
    .addColumn("stripe_refund_id", "text", (c) =>
      c.unique().check(sql`stripe_refund_id ~ '^(re|pyr)_[0-9A-Za-z_]{1,200}$'`),
    )
    .execute();

  await db.schema
    .createTable("stripe_payment_failures")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("invoice_id", "uuid", (c) => c.notNull().references("invoices.id").onDelete("cascade"))
    .addColumn("payment_intent_id", "text", (c) => c.check(sql`payment_intent_id ~ '^pi_[0-9A-Za-z_]{1,200}$'`))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`length(reason) between 1 and 500`))
    .addColumn("failed_at", "timestamptz", (c) => c.notNull())
    .execute();
  // One row per failed PaymentIntent: the webhook and the charge job may both report the same one.
  await sql`create unique index stripe_payment_failures_intent_key on stripe_payment_failures (payment_intent_id)
    where payment_intent_id is not null`.execute(db);
  await sql`create index stripe_payment_failures_invoice_idx on stripe_payment_failures (invoice_id, failed_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("stripe_payment_failures").execute();
  await db.schema.alterTable("refunds").dropColumn("stripe_refund_id").execute();
  await sql`alter table payments drop constraint payments_stripe_check`.execute(db);
  await db.schema
    .alterTable("payments")
    .dropColumn("stripe_payment_intent_id")
    .dropColumn("disputed_at")
    .dropColumn("dispute_note")
    .execute();
  await db.schema.dropTable("stripe_events").execute();
  await db.schema.dropTable("stripe_customers").execute();
}
