import { sql, type Kysely } from "kysely";

// Frozen: this migration states the lists it checks as they were when it first ran. The live
// lists (app/features/*/*-constants.ts) change only through a new migration; a test in
// db/migrations.test.ts compares them with the CHECK constraints of a migrated database.
const SERVICE_TYPES = [
  "Weekly Service",
  "Twice Weekly Service",
  "Desert Dash",
  "Desert Refresh",
  "Yard Refresh",
  "Sanitize & Deodorize",
  "Trash Bin Clean",
];
const SERVICE_STATUSES = ["scheduled", "in_progress", "completed", "skipped", "cancelled"];
const BOOKING_STATUSES = ["pending", "confirmed", "completed", "cancelled"];
const BOOKING_SOURCES = ["calendar", "admin", "website"];
const IMAGE_TYPES = ["before", "after"];
const ROLES = ["admin"];
const OAUTH_PROVIDERS = ["google", "facebook"];
const QUOTE_STATUSES = ["new", "contacted", "won", "lost"];
const DOG_COUNTS = ["1", "2", "3", "4+"];
const YARD_SIZES = ["small", "medium", "large"];
const NOTIFICATION_STATUSES = ["pending", "sent", "failed", "skipped"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("email", "text", (c) => c.notNull().check(sql`email = btrim(email) and length(email) between 3 and 320`))
    .addColumn("password_hash", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // E-mail addresses are unique whatever their case.
  await sql`create unique index users_email_lower_key on users (lower(email))`.execute(db);

  await db.schema
    .createTable("profiles")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("full_name", "text", (c) => c.notNull().check(sql`length(full_name) between 1 and 200`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("user_roles")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull().check(oneOf("role", ROLES)))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("user_roles_pkey", ["user_id", "role"])
    .execute();

  await db.schema
    .createTable("oauth_accounts")
    .addColumn("provider", "text", (c) => c.notNull().check(oneOf("provider", OAUTH_PROVIDERS)))
    .addColumn("provider_user_id", "text", (c) => c.notNull())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("oauth_accounts_pkey", ["provider", "provider_user_id"])
    .execute();
  await db.schema.createIndex("oauth_accounts_user_id_idx").on("oauth_accounts").column("user_id").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at_idx").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("services")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("customer_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("service_type", "text", (c) => c.notNull().check(oneOf("service_type", SERVICE_TYPES)))
    .addColumn("service_date", "timestamptz", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("scheduled").check(oneOf("status", SERVICE_STATUSES)))
    .addColumn("notes", "text", (c) => c.check(sql`length(notes) <= 2000`))
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Serves the customer's "latest 5 services by service_date descending".
  await sql`create index services_customer_id_service_date_idx on services (customer_id, service_date desc)`.execute(
    db,
  );

  await db.schema
    .createTable("service_images")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("service_id", "uuid", (c) => c.notNull().references("services.id").onDelete("cascade"))
    .addColumn("image_url", "text", (c) => c.notNull().unique())
    .addColumn("image_type", "text", (c) => c.notNull().check(oneOf("image_type", IMAGE_TYPES)))
    .addColumn("content_type", "text")
    .addColumn("size_bytes", "bigint", (c) => c.check(sql`size_bytes >= 0`))
    .addColumn("uploaded_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index service_images_service_id_created_at_idx on service_images (service_id, created_at desc)`.execute(
    db,
  );

  await db.schema
    .createTable("bookings")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("customer_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("service_type", "text", (c) => c.notNull())
    .addColumn("booking_date", "timestamptz", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending").check(oneOf("status", BOOKING_STATUSES)))
    .addColumn("source", "text", (c) => c.notNull().defaultTo("website").check(oneOf("source", BOOKING_SOURCES)))
    .addColumn("external_id", "text", (c) => c.unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index bookings_customer_id_booking_date_idx on bookings (customer_id, booking_date desc)`.execute(
    db,
  );

  await db.schema
    .createTable("quote_requests")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("name", "text", (c) => c.notNull().check(sql`length(name) between 1 and 120`))
    .addColumn("phone", "text", (c) => c.notNull().check(sql`length(phone) between 10 and 32`))
    .addColumn("email", "text", (c) => c.notNull().check(sql`length(email) between 3 and 320`))
    .addColumn("address", "text", (c) => c.notNull().check(sql`length(address) between 1 and 300`))
    .addColumn("zip", "text", (c) => c.notNull().check(sql`zip ~ '^[0-9]{5}$'`))
    .addColumn("dogs", "text", (c) => c.notNull().check(oneOf("dogs", DOG_COUNTS)))
    .addColumn("yard_size", "text", (c) => c.notNull().check(oneOf("yard_size", YARD_SIZES)))
    .addColumn("service", "text", (c) => c.notNull().check(sql`length(service) between 1 and 60`))
    .addColumn("message", "text", (c) => c.check(sql`length(message) <= 5000`))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("new").check(oneOf("status", QUOTE_STATUSES)))
    .addColumn("outside_service_area", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("estimate_cents", "integer", (c) => c.check(sql`estimate_cents >= 0`))
    .addColumn("estimate_label", "text")
    .addColumn("dedupe_key", "text", (c) => c.notNull())
    .addColumn("client_key", "text")
    .addColumn("notification_status", "text", (c) =>
      c.notNull().defaultTo("pending").check(oneOf("notification_status", NOTIFICATION_STATUSES)),
    )
    .addColumn("notification_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notification_error", "text")
    .addColumn("notified_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The admin inbox lists newest first, optionally by status; the retry job finds unsent ones.
  await sql`create index quote_requests_created_at_idx on quote_requests (created_at desc)`.execute(db);
  await sql`create index quote_requests_status_created_at_idx on quote_requests (status, created_at desc)`.execute(db);
  await sql`create index quote_requests_dedupe_key_created_at_idx on quote_requests (dedupe_key, created_at desc)`.execute(
    db,
  );
  await sql`create index quote_requests_unsent_idx on quote_requests (created_at) where notification_status in ('pending', 'failed')`.execute(
    db,
  );

  // Fixed-window counters for sign-in, sign-up and quote limits, shared by every machine.
  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("window_started_at", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>) {
  for (const table of [
    "rate_limits",
    "quote_requests",
    "bookings",
    "service_images",
    "services",
    "sessions",
    "oauth_accounts",
    "user_roles",
    "profiles",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
