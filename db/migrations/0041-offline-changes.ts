import { sql, type Kysely } from "kysely";

/**
 * The changes a technician's phone queued offline and sent later (docs/decisions/127): one row
 * per staff member and idempotency key (a uuid the phone made when the change was made), written
 * in the transaction that applied the change, with the answer it got. A retried send finds its
 * row and gets the same answer again: the visit is not completed twice, the customer not
 * e-mailed twice. Only applied changes are kept; a refused or conflicting one stores nothing.
 */
export async function up(db: Kysely<any>) {
  await sql`create table offline_changes (
    user_id uuid not null references users(id) on delete cascade,
    idempotency_key uuid not null,
    service_id uuid references services(id) on delete set null,
    intent text not null check (intent in ('complete', 'miss', 'notes', 'photo')),
    status smallint not null,
    message text not null,
    created_at timestamptz not null default now(),
    primary key (user_id, idempotency_key)
  )`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop table if exists offline_changes`.execute(db);
}
