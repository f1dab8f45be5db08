import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the lists below are stated as they were when this migration first
// ran; db/constants-match-checks.test.ts compares the live lists in db/enums.ts with them.
const SERVICE_TYPES = [
  "Weekly Service",
  "Twice Weekly Service",
  "Thrice Weekly Service",
  "Desert Dash",
  "Desert Refresh",
  "Yard Refresh",
  "Sanitize & Deodorize",
  "Trash Bin Clean",
];
const TOKEN_PURPOSES = ["verify-email", "reset-password", "set-password"];
const SERVICE_EVENT_KINDS = [
  "status",
  "rescheduled",
  "return_visit",
  "notes",
  "health_notes",
  "media_deleted",
  "email_skipped",
  "left_plan",
];
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
];
const PLAN_STATUSES = ["active", "paused", "cancelled"];
const SKIP_REASONS = ["customer", "paused", "payment_overdue", "admin"];
const PLAN_EVENT_KINDS = ["started", "changed", "paused", "resumed", "cancelled", "visit_skipped", "skip_undone"];
const YARD_SIZES = ["small", "medium", "large"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

async function replaceCheck(db: Kysely<any>, table: string, column: string, values: readonly string[]) {
  const name = `${table}_${column}_check`;
  await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.id(name)}`.execute(db);
  await sql`alter table ${sql.table(table)} add constraint ${sql.id(name)} check (${oneOf(column, values)})`.execute(
    db,
  );
}

/**
 * Customer plans (docs/decisions/090): a customer's subscription to a catalogue plan, its history,
 * and the visits made from it. A visit made from a plan carries the plan and its *slot* (the
 * service weekday it stands for); (plan_id, plan_slot) is unique, which is what makes the
 * generator idempotent across runs and machines. A visit moved off a closed day keeps its slot.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("customer_plans")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("customer_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // The catalogue plan: its Sanity document id, and its name when the plan was made or changed.
    .addColumn("catalogue_plan_id", "text", (c) => c.notNull().check(sql`length(catalogue_plan_id) between 1 and 200`))
    .addColumn("catalogue_plan_name", "text", (c) =>
      c.notNull().check(sql`length(catalogue_plan_name) between 1 and 200`),
    )
    .addColumn("visits_per_week", "integer", (c) => c.notNull().check(sql`visits_per_week between 1 and 5`))
    // ISO weekdays, Monday 1 to Friday 5, ascending, as many as visits_per_week.
    .addColumn("weekdays", sql`smallint[]`, (c) => c.notNull())
    .addColumn("dog_count", "integer", (c) => c.notNull().check(sql`dog_count between 1 and 20`))
    .addColumn("yard_size", "text", (c) => c.notNull().check(oneOf("yard_size", YARD_SIZES)))
    .addColumn("start_date", "date", (c) => c.notNull())
    // The first day the plan's current days apply ("Change plan" from a date); null: start_date.
    // Visits of earlier slots keep the days they were made for.
    .addColumn("schedule_from", "date")
    .addColumn("notes", "text", (c) => c.check(sql`length(notes) <= 1000`))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active").check(oneOf("status", PLAN_STATUSES)))
    .addColumn("paused_from", "date")
    .addColumn("paused_until", "date")
    .addColumn("cancelled_at", "timestamptz")
    .addColumn("last_visit_date", "date")
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "customer_plans_weekdays_check",
      sql`cardinality(weekdays) = visits_per_week and weekdays <@ array[1,2,3,4,5]::smallint[]`,
    )
    .addCheckConstraint(
      "customer_plans_pause_check",
      sql`(status = 'paused') = (paused_from is not null and paused_until is not null)
        and (paused_from is null or paused_until >= paused_from)`,
    )
    .addCheckConstraint(
      "customer_plans_cancel_check",
      sql`(status = 'cancelled') = (cancelled_at is not null and last_visit_date is not null)`,
    )
    .execute();
  // A customer has at most one plan that is not cancelled.
  await sql`create unique index customer_plans_one_open_per_customer on customer_plans (customer_id) where status <> 'cancelled'`.execute(
    db,
  );
  await sql`create index customer_plans_customer_id_idx on customer_plans (customer_id, created_at desc)`.execute(db);
  // The generator walks the plans that make visits in id order (keyset batches).
  await sql`create index customer_plans_open_id_idx on customer_plans (id) where status <> 'cancelled'`.execute(db);

  await db.schema
    .createTable("customer_plan_events")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("plan_id", "uuid", (c) => c.notNull().references("customer_plans.id").onDelete("cascade"))
    .addColumn("actor_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("kind", "text", (c) => c.notNull().check(oneOf("kind", PLAN_EVENT_KINDS)))
    .addColumn("detail", "text", (c) => c.check(sql`length(detail) <= 1000`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index customer_plan_events_plan_id_created_at_idx on customer_plan_events (plan_id, created_at desc)`.execute(
    db,
  );

  await db.schema
    .alterTable("services")
    .addColumn("plan_id", "uuid", (c) => c.references("customer_plans.id").onDelete("set null"))
    .addColumn("plan_slot", "date")
    // Set when an admin changed the visit by hand: it then no longer follows its plan.
    .addColumn("plan_left_at", "timestamptz")
    .addColumn("skip_reason", "text", (c) => c.check(oneOf("skip_reason", SKIP_REASONS)))
    .execute();
  await sql`alter table services add constraint services_plan_slot_check check ((plan_id is null) or (plan_slot is not null))`.execute(
    db,
  );
  await sql`create unique index services_plan_id_plan_slot_key on services (plan_id, plan_slot) where plan_id is not null`.execute(
    db,
  );

  await replaceCheck(db, "services", "service_type", SERVICE_TYPES);
  await replaceCheck(db, "account_tokens", "purpose", TOKEN_PURPOSES);
  await replaceCheck(db, "service_events", "kind", SERVICE_EVENT_KINDS);
  await replaceCheck(db, "outbox", "kind", OUTBOX_KINDS);
}

export async function down(db: Kysely<any>) {
  await sql`drop index if exists services_plan_id_plan_slot_key`.execute(db);
  await sql`alter table services drop constraint if exists services_plan_slot_check`.execute(db);
  await db.schema
    .alterTable("services")
    .dropColumn("plan_id")
    .dropColumn("plan_slot")
    .dropColumn("plan_left_at")
    .dropColumn("skip_reason")
    .execute();
  await db.schema.dropTable("customer_plan_events").execute();
  await db.schema.dropTable("customer_plans").execute();
}
