import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the lists below are stated as they were when this migration first
// ran. The live lists are in app/features/{visits,yards,outbox}/*-constants.ts;
// db/constants-match-checks.test.ts compares them with the constraints written here.
const SERVICE_STATUSES = ["scheduled", "completed", "missed", "skipped", "cancelled"];
const MISSED_REASONS = ["locked_gate", "dog_in_yard", "weather", "other"];
const HEALTH_FLAGS = ["loose_stool", "blood_in_stool", "worms_or_foreign_objects", "unusual_amount", "yard_hazard"];
const SERVICE_EVENT_KINDS = [
  "status",
  "rescheduled",
  "return_visit",
  "notes",
  "health_notes",
  "media_deleted",
  "email_skipped",
];
const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "skipped"];
const OUTBOX_KINDS = [
  "visit_completed",
  "visit_missed",
  "quote_owner",
  "quote_visitor",
  "account_verification",
  "account_password_reset",
  "other",
];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

export async function up(db: Kysely<any>) {
  // "in_progress" was in the first list but nothing ever set it; a visit is now either still to
  // do (scheduled) or has an outcome. Any row that has it goes back to scheduled (docs/decisions/030).
  await sql`update services set status = 'scheduled' where status = 'in_progress'`.execute(db);
  await sql`alter table services drop constraint if exists services_status_check`.execute(db);
  await sql`alter table services add constraint services_status_check check (${oneOf("status", SERVICE_STATUSES)})`.execute(
    db,
  );

  await db.schema
    .alterTable("services")
    .addColumn("return_visit_of", "uuid", (c) => c.references("services.id").onDelete("set null"))
    .addColumn("missed_reason", "text", (c) => c.check(oneOf("missed_reason", MISSED_REASONS)))
    .addColumn("missed_note", "text", (c) => c.check(sql`length(missed_note) <= 500`))
    .addColumn("health_flags", sql`text[]`, (c) =>
      c
        .notNull()
        .defaultTo(sql`'{}'::text[]`)
        .check(sql`health_flags <@ array[${sql.join(HEALTH_FLAGS.map((v) => sql.lit(v)))}]::text[]`),
    )
    .addColumn("health_note", "text", (c) => c.check(sql`length(health_note) <= 2000`))
    .addColumn("completed_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The admin's Visits list and Today: a date range in time order (keyset on service_date, id),
  // optionally one status. A missed visit has at most one return visit.
  await sql`create index services_service_date_id_idx on services (service_date, id)`.execute(db);
  await sql`create index services_status_service_date_idx on services (status, service_date, id)`.execute(db);
  await sql`create unique index services_return_visit_of_key on services (return_visit_of) where return_visit_of is not null`.execute(
    db,
  );
  // The customer's page finds their quote requests by e-mail, whatever its case.
  await sql`create index quote_requests_email_lower_idx on quote_requests (lower(email), created_at desc)`.execute(db);

  await db.schema
    .createTable("service_events")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("service_id", "uuid", (c) => c.notNull().references("services.id").onDelete("cascade"))
    .addColumn("actor_id", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("kind", "text", (c) => c.notNull().check(oneOf("kind", SERVICE_EVENT_KINDS)))
    .addColumn("from_status", "text")
    .addColumn("to_status", "text")
    .addColumn("detail", "text", (c) => c.check(sql`length(detail) <= 1000`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index service_events_service_id_created_at_idx on service_events (service_id, created_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable("yard_profiles")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("street", "text", (c) => c.check(sql`length(street) <= 200`))
    .addColumn("city", "text", (c) => c.check(sql`length(city) <= 100`))
    .addColumn("zip", "text", (c) => c.check(sql`zip ~ '^[0-9]{5}$'`))
    .addColumn("gate_code", "text", (c) => c.check(sql`length(gate_code) <= 40`))
    .addColumn("gate_location", "text", (c) => c.check(sql`length(gate_location) <= 200`))
    .addColumn("dog_count", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`dog_count between 0 and 20`),
    )
    .addColumn("dog_names", "text", (c) => c.check(sql`length(dog_names) <= 300`))
    .addColumn("loose_dog", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("hazards", "text", (c) => c.check(sql`length(hazards) <= 1000`))
    .addColumn("access_notes", "text", (c) => c.check(sql`length(access_notes) <= 1000`))
    .addColumn("notify_visit_emails", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("outbox")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("kind", "text", (c) => c.notNull().check(oneOf("kind", OUTBOX_KINDS)))
    .addColumn("to_address", "text", (c) => c.notNull().check(sql`length(to_address) between 3 and 320`))
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", (c) => c.notNull().check(sql`length(subject) between 1 and 300`))
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text")
    // [{ key, filename, contentType, cid? }]: storage keys, read when the message is sent.
    .addColumn("attachments", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("dedupe_key", "text", (c) => c.unique())
    .addColumn("related_id", "uuid")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending").check(oneOf("status", OUTBOX_STATUSES)))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("locked_until", "timestamptz")
    .addColumn("sent_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The worker's claim: due rows only, oldest first. The visit page: its own messages.
  await sql`create index outbox_due_idx on outbox (next_attempt_at) where status in ('pending', 'sending')`.execute(db);
  await sql`create index outbox_related_id_idx on outbox (related_id, created_at desc) where related_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("outbox").ifExists().execute();
  await db.schema.dropTable("yard_profiles").ifExists().execute();
  await db.schema.dropTable("service_events").ifExists().execute();
  await sql`drop index if exists quote_requests_email_lower_idx`.execute(db);
  await sql`drop index if exists services_return_visit_of_key`.execute(db);
  await sql`drop index if exists services_status_service_date_idx`.execute(db);
  await sql`drop index if exists services_service_date_id_idx`.execute(db);
  for (const column of [
    "updated_at",
    "completed_at",
    "health_note",
    "health_flags",
    "missed_note",
    "missed_reason",
    "return_visit_of",
  ]) {
    await db.schema.alterTable("services").dropColumn(column).execute();
  }
  await sql`update services set status = 'skipped' where status = 'missed'`.execute(db);
  await sql`alter table services drop constraint if exists services_status_check`.execute(db);
  await sql`alter table services add constraint services_status_check check (status in ('scheduled', 'in_progress', 'completed', 'skipped', 'cancelled'))`.execute(
    db,
  );
}
