import { sql, type Kysely } from "kysely";

// This migration's own copy of the invoice line kinds (frozen; db/enums.ts holds the live list):
// migration 0029's list, plus the initial clean a sign-up at /start pays with its first month.
const KINDS_BEFORE = ["plan_month", "prorated_month", "one_time_service", "skip_credit", "plan_change"];
const INVOICE_LINE_KINDS = [...KINDS_BEFORE, "initial_clean"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/**
 * Start online (issue 37 item 1, docs/decisions/129): the answers of a sign-up in progress, kept
 * server-side under a signed cookie's id until they expire (the purge job deletes them); the
 * waitlist of visitors whose ZIP is outside the service area; and the invoice line of the
 * initial clean.
 */
export async function up(db: Kysely<any>) {
  await sql`create table sign_ups (
    id uuid primary key default gen_random_uuid(),
    answers jsonb not null default '{}'::jsonb,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    expires_at timestamptz not null,
    finished_at timestamptz,
    customer_id uuid references users(id) on delete set null,
    constraint sign_ups_answers_size_check check (octet_length(answers::text) <= 8000)
  )`.execute(db);
  // The purge job deletes by expiry.
  await sql`create index sign_ups_expires_at_idx on sign_ups (expires_at)`.execute(db);

  await sql`create table waitlist_entries (
    id uuid primary key default gen_random_uuid(),
    email text not null constraint waitlist_entries_email_check check (length(email) between 3 and 320),
    zip text not null constraint waitlist_entries_zip_check check (zip ~ '^[0-9]{5}$'),
    created_at timestamptz not null default now()
  )`.execute(db);
  // One entry per address and ZIP: joining twice is not a second row.
  await sql`create unique index waitlist_entries_email_zip_key on waitlist_entries (lower(email), zip)`.execute(db);
  // The owner's list, newest first, and by ZIP.
  await sql`create index waitlist_entries_created_at_idx on waitlist_entries (created_at desc, id)`.execute(db);
  await sql`create index waitlist_entries_zip_idx on waitlist_entries (zip, created_at desc)`.execute(db);

  await sql`alter table invoice_lines drop constraint if exists invoice_lines_kind_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_kind_check
    check (${oneOf("kind", INVOICE_LINE_KINDS)})`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`delete from invoice_lines where kind = 'initial_clean'`.execute(db);
  await sql`alter table invoice_lines drop constraint if exists invoice_lines_kind_check`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_kind_check
    check (${oneOf("kind", KINDS_BEFORE)})`.execute(db);
  await sql`drop table if exists waitlist_entries`.execute(db);
  await sql`drop table if exists sign_ups`.execute(db);
}
