import { sql, type Kysely } from "kysely";

// This migration's own copy of the outbox kinds (frozen; db/enums.ts holds the live list): every
// kind before it, plus the "on my way" e-mail and the text messages.
const OUTBOX_KINDS = [
  "visit_completed",
  "visit_missed",
  "quote_owner",
  "quote_visitor",
  "account_verification",
  "account_password_reset",
  "plan_customer",
  "plan_owner",
  "account_invite",
  "other",
  "on_my_way",
  "text_on_my_way",
];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * "On my way" notices and text messages (docs/decisions/097).
 * - services.on_my_way_at: when the admin pressed "On my way" (once per visit).
 * - yard_profiles.mobile_phone (E.164) and text_consent_at: the customer's own consent to texts,
 *   with its time (the carriers ask for a record of when consent was given).
 * - text_opt_outs: numbers that replied STOP, whoever they are (a number we never texted too).
 * - text_replies: the inbound keyword messages handled, by Twilio's MessageSid, so that a replayed
 *   webhook changes nothing.
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("services").addColumn("on_my_way_at", "timestamptz").execute();
  await db.schema
    .alterTable("yard_profiles")
    .addColumn("mobile_phone", "text", (c) => c.check(sql`mobile_phone ~ '^\\+[1-9][0-9]{6,14}$'`))
    .addColumn("text_consent_at", "timestamptz")
    .execute();
  await db.schema
    .createTable("text_opt_outs")
    .addColumn("phone", "text", (c) => c.primaryKey().check(sql`phone ~ '^\\+[1-9][0-9]{6,14}$'`))
    .addColumn("opted_out_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("text_replies")
    .addColumn("message_sid", "text", (c) => c.primaryKey().check(sql`length(message_sid) between 1 and 64`))
    .addColumn("phone", "text", (c) => c.notNull().check(sql`length(phone) between 1 and 32`))
    .addColumn("keyword", "text", (c) => c.notNull().check(sql`keyword in ('stop', 'start', 'help')`))
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table outbox drop constraint if exists outbox_kind_check`.execute(db);
  await sql`alter table outbox add constraint outbox_kind_check check (${oneOf("kind", OUTBOX_KINDS)})`.execute(db);
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("text_replies").execute();
  await db.schema.dropTable("text_opt_outs").execute();
  await db.schema.alterTable("yard_profiles").dropColumn("mobile_phone").dropColumn("text_consent_at").execute();
  await db.schema.alterTable("services").dropColumn("on_my_way_at").execute();
}
