import { sql, type Kysely } from "kysely";

/**
 * Indexes for the admin's lists at 100k customers (docs/decisions/064):
 * - the quote inbox pages by keyset on (created_at, id), with and without a status filter (a btree
 *   is read both ways: newest first, and oldest first for the last page);
 * - the customer search (list and Create Service picker) matches `%q%` in the lower-case e-mail
 *   or name. pg_trgm GIN indexes serve that where the extension exists (PostgreSQL: a trusted
 *   extension since 13, so the database owner may create it). PGlite (dev and tests, a few rows)
 *   ships without it: there the same query scans, and nothing else changes.
 */
export async function up(db: Kysely<any>) {
  await sql`create index quote_requests_created_at_id_idx on quote_requests (created_at, id)`.execute(db);
  await sql`create index quote_requests_status_created_at_id_idx on quote_requests (status, created_at, id)`.execute(
    db,
  );
  // Superseded by the two above (same leading columns, read either way); left in place they
  // cost every insert and lure the planner into sorting ties on id after the scan.
  await sql`drop index if exists quote_requests_created_at_idx`.execute(db);
  await sql`drop index if exists quote_requests_status_created_at_idx`.execute(db);
  const available = await sql<{ ok: boolean }>`select exists (
      select 1 from pg_available_extensions where name = 'pg_trgm'
    ) as ok`.execute(db);
  if (available.rows[0]?.ok) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index users_email_lower_trgm_idx on users using gin (lower(email) gin_trgm_ops)`.execute(db);
    await sql`create index profiles_full_name_lower_trgm_idx on profiles using gin (lower(full_name) gin_trgm_ops)`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>) {
  await sql`create index if not exists quote_requests_created_at_idx on quote_requests (created_at desc)`.execute(db);
  await sql`create index if not exists quote_requests_status_created_at_idx on quote_requests (status, created_at desc)`.execute(
    db,
  );
  await sql`drop index if exists profiles_full_name_lower_trgm_idx`.execute(db);
  await sql`drop index if exists users_email_lower_trgm_idx`.execute(db);
  await sql`drop index if exists quote_requests_status_created_at_id_idx`.execute(db);
  await sql`drop index if exists quote_requests_created_at_id_idx`.execute(db);
}
