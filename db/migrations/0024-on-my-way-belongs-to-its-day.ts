import { sql, type Kysely } from "kysely";

// This migration's own copy of the business's time zone (frozen, as decision 003 freezes lists;
// app/utils/business-time.ts holds the live one, and tests/notices/on-my-way-moves.test.ts
// compares the two). A visit's day is its date on the Las Vegas calendar, not in UTC: a 5 PM visit
// is the next day in UTC.
const BUSINESS_TIME_ZONE = "America/Los_Angeles";

/**
 * "On my way" belongs to a visit's day (docs/decisions/108). `services.on_my_way_at` was kept
 * when the visit moved to another day, so the customer's page said "On the way" for days and the
 * new day's "On my way" was refused as already sent. A trigger clears it whenever an update moves
 * the visit to another business day, whatever code does it: the admin's Reschedule, a Cal.com
 * reschedule, the generator's closed-day move, a plan change (in the same statement, so in the
 * same transaction). A move within the day keeps it: the technician is still on the way.
 *
 * Row-level, and only for rows with an "On my way" whose date changes (the WHEN clause is checked
 * before the function is called), so the generator's bulk moves of untouched visits pay nothing.
 */
export async function up(db: Kysely<any>) {
  const zone = sql.lit(BUSINESS_TIME_ZONE);
  await sql`create function services_on_my_way_follows_day() returns trigger language plpgsql as $$
    begin
      if (new.service_date at time zone ${zone})::date <> (old.service_date at time zone ${zone})::date then
        new.on_my_way_at := null;
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger services_on_my_way_follows_day before update of service_date on services
    for each row when (old.on_my_way_at is not null and new.service_date is distinct from old.service_date)
    execute function services_on_my_way_follows_day()`.execute(db);

  // Visits already moved: "On my way" is only ever sent on the visit's own day, so one whose day
  // differs from the visit's was sent for a day the visit has left.
  await sql`update services set on_my_way_at = null
    where on_my_way_at is not null
      and (on_my_way_at at time zone ${zone})::date <> (service_date at time zone ${zone})::date`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`drop trigger if exists services_on_my_way_follows_day on services`.execute(db);
  await sql`drop function if exists services_on_my_way_follows_day()`.execute(db);
}
