import { sql, type Kysely } from "kysely";

/**
 * The Reports tab's monthly aggregates (issue 38, docs/decisions/130), rewritten whole by the
 * `reports:refresh` job (each night, and on demand) in one transaction, so a report reads a few
 * hundred rows instead of scanning 100k plans, 1.2M invoices or 2M visits. Money figures are not
 * here: they are read from the ledger's and the invoices' tallies, always current.
 */
export async function up(db: Kysely<any>) {
  // One row per month: recurring revenue and its movement (cents), customers.
  await sql`create table report_months (
    month date primary key,
    mrr_cents bigint not null,
    paying_customers integer not null,
    new_cents bigint not null,
    expansion_cents bigint not null,
    contraction_cents bigint not null,
    churned_cents bigint not null,
    reactivated_cents bigint not null,
    active_customers integer not null,
    new_customers integer not null,
    lost_customers integer not null
  )`.execute(db);
  // Plans cancelled in a month by the reason given ('' when none was).
  await sql`create table report_cancellations (
    month date not null,
    reason text not null,
    plans integer not null,
    primary key (month, reason)
  )`.execute(db);
  // Customers by the month of their first plan, and how many of them have an open plan at the end
  // of each later month.
  await sql`create table report_cohorts (
    cohort_month date not null,
    month date not null,
    cohort_size integer not null,
    active integer not null,
    primary key (cohort_month, month)
  )`.execute(db);
  // Visits of a month by outcome ('completed', 'skipped', 'missed') and reason ('' when none);
  // return_visits: those of them that return to a missed visit.
  await sql`create table report_visit_months (
    month date not null,
    status text not null,
    reason text not null,
    visits integer not null,
    return_visits integer not null,
    primary key (month, status, reason)
  )`.execute(db);
  // Invoices whose first off-session charge failed in a month, and how many are paid since.
  await sql`create table report_failed_payment_months (
    month date primary key,
    failed integer not null,
    failed_cents bigint not null,
    recovered integer not null,
    recovered_cents bigint not null
  )`.execute(db);
  // When the aggregates were last made, and how long it took: one row.
  await sql`create table report_refreshes (
    id smallint primary key default 1 check (id = 1),
    refreshed_at timestamptz not null,
    took_ms integer not null
  )`.execute(db);
}

export async function down(db: Kysely<any>) {
  for (const table of [
    "report_refreshes",
    "report_failed_payment_months",
    "report_visit_months",
    "report_cohorts",
    "report_cancellations",
    "report_months",
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
