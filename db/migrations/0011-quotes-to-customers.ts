import { sql, type Kysely } from "kysely";

/**
 * A quote request becomes a customer (issue 25 item 6, docs/decisions/096): the request points at
 * the account it became (a new one, or the one that already had its e-mail), and says when and
 * which of the two it was, so that its page can tell the admin. A deleted account leaves the
 * request as it was, without the link.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("quote_requests")
    .addColumn("customer_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("converted_at", "timestamptz")
    // true: the e-mail already had an account, which got the plan; false: the account was made.
    .addColumn("customer_existed", "boolean")
    .execute();
  await sql`alter table quote_requests add constraint quote_requests_conversion_check
    check ((converted_at is null) = (customer_existed is null))`.execute(db);
  // The customer page's "Quote requests" and a deleted account's ON DELETE SET NULL find them by it.
  await sql`create index quote_requests_customer_id_idx on quote_requests (customer_id) where customer_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists quote_requests_customer_id_idx`.execute(db);
  await sql`alter table quote_requests drop constraint if exists quote_requests_conversion_check`.execute(db);
  await db.schema
    .alterTable("quote_requests")
    .dropColumn("customer_existed")
    .dropColumn("converted_at")
    .dropColumn("customer_id")
    .execute();
}
