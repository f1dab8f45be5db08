import { sql, type Kysely } from "kysely";

// Frozen (docs/decisions/003): the lists as they were when this migration first ran.
const BOOKING_STATUSES = ["pending", "confirmed", "completed", "cancelled", "rescheduled", "reschedule_requested"];
const BOOKING_PROVIDERS = ["cal_com", "calendly"];
const PREVIOUS_BOOKING_STATUSES = ["pending", "confirmed", "completed", "cancelled"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Bookings written by signed calendar webhooks (docs/decisions/040-043):
 * - a booking may be unlinked (no customer yet) until the admin assigns one;
 * - the provider's id is unique per provider, so a replayed delivery finds its row;
 * - `provider_event_at` is the timestamp of the last delivery applied, so an older delivery
 *   arriving late never overwrites newer state;
 * - `services.booking_id` is unique: pressing "Create Visit" twice makes one visit.
 */
export async function up(db: Kysely<any>) {
  await sql`alter table bookings drop constraint if exists bookings_status_check`.execute(db);
  await sql`alter table bookings add constraint bookings_status_check check (${oneOf("status", BOOKING_STATUSES)})`.execute(
    db,
  );
  await sql`alter table bookings alter column customer_id drop not null`.execute(db);
  await sql`alter table bookings drop constraint if exists bookings_external_id_key`.execute(db);

  await db.schema
    .alterTable("bookings")
    .addColumn("provider", "text", (c) => c.check(oneOf("provider", BOOKING_PROVIDERS)))
    .addColumn("attendee_email", "text", (c) => c.check(sql`length(attendee_email) <= 320`))
    .addColumn("event_type", "text", (c) => c.check(sql`length(event_type) <= 300`))
    .addColumn("ends_at", "timestamptz")
    .addColumn("provider_event_at", "timestamptz")
    .addColumn("rescheduled_from", "text", (c) => c.check(sql`length(rescheduled_from) <= 300`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table bookings add constraint bookings_provider_external_id_key unique (provider, external_id)`.execute(
    db,
  );
  await sql`alter table bookings add constraint bookings_provider_has_external_id check (provider is null or external_id is not null)`.execute(
    db,
  );
  // The admin's list: upcoming ascending and past descending, both by booking date.
  await sql`create index bookings_booking_date_idx on bookings (booking_date, id)`.execute(db);
  await sql`create index bookings_unmatched_idx on bookings (booking_date, id) where customer_id is null`.execute(db);

  await db.schema
    .alterTable("services")
    .addColumn("booking_id", "uuid", (c) => c.references("bookings.id").onDelete("set null"))
    .execute();
  await sql`alter table services add constraint services_booking_id_key unique (booking_id)`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table services drop constraint if exists services_booking_id_key`.execute(db);
  await db.schema.alterTable("services").dropColumn("booking_id").execute();
  await sql`drop index if exists bookings_unmatched_idx`.execute(db);
  await sql`drop index if exists bookings_booking_date_idx`.execute(db);
  await sql`alter table bookings drop constraint if exists bookings_provider_has_external_id`.execute(db);
  await sql`alter table bookings drop constraint if exists bookings_provider_external_id_key`.execute(db);
  for (const column of [
    "updated_at",
    "rescheduled_from",
    "provider_event_at",
    "ends_at",
    "event_type",
    "attendee_email",
    "provider",
  ]) {
    await db.schema.alterTable("bookings").dropColumn(column).execute();
  }
  await sql`delete from bookings where customer_id is null`.execute(db);
  await sql`alter table bookings alter column customer_id set not null`.execute(db);
  await sql`alter table bookings add constraint bookings_external_id_key unique (external_id)`.execute(db);
  await sql`update bookings set status = 'cancelled' where status in ('rescheduled', 'reschedule_requested')`.execute(
    db,
  );
  await sql`alter table bookings drop constraint if exists bookings_status_check`.execute(db);
  await sql`alter table bookings add constraint bookings_status_check check (${oneOf("status", PREVIOUS_BOOKING_STATUSES)})`.execute(
    db,
  );
}
