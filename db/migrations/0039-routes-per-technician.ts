import { sql, type Kysely } from "kysely";

/**
 * A route per technician (docs/decisions/126).
 *
 * staff_routes: the route settings of a staff member who works a route (a technician, or an owner
 * or office account in a one-truck business): where the day starts (and, optionally, ends) as
 * the yards are located (a name, latitude and longitude; a ZIP code's centroid when no
 * coordinates were typed, resolved when saved), the working hours as minutes of the day, the
 * weekdays as a bit mask (bit 0 Sunday … bit 6 Saturday), and the "works a route" switch.
 *
 * customer_technicians: whose customer a customer is (stable assignment), placed by the day's
 * split ("split") or by the owner ("owner"); the split fills services.assigned_to from it.
 *
 * services.assigned_by_hand: the owner or office put this visit with its staff member by hand
 * (the visit's page, "Move to" on the routes page); the split never changes such a visit.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .createTable("staff_routes")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("works_route", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("start_name", "text", (c) => c.notNull().check(sql`length(start_name) between 1 and 200`))
    .addColumn("start_latitude", "double precision", (c) => c.notNull().check(sql`start_latitude between -90 and 90`))
    .addColumn("start_longitude", "double precision", (c) =>
      c.notNull().check(sql`start_longitude between -180 and 180`),
    )
    .addColumn("end_name", "text", (c) => c.check(sql`length(end_name) between 1 and 200`))
    .addColumn("end_latitude", "double precision", (c) => c.check(sql`end_latitude between -90 and 90`))
    .addColumn("end_longitude", "double precision", (c) => c.check(sql`end_longitude between -180 and 180`))
    .addColumn("day_starts_at", "integer", (c) => c.notNull().check(sql`day_starts_at between 0 and 1439`))
    .addColumn("day_ends_at", "integer", (c) => c.notNull().check(sql`day_ends_at between 1 and 1440`))
    .addColumn("weekdays", "smallint", (c) => c.notNull().check(sql`weekdays between 0 and 127`))
    .addColumn("updated_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table staff_routes add constraint staff_routes_hours_check check (day_ends_at > day_starts_at)`.execute(
    db,
  );
  await sql`alter table staff_routes add constraint staff_routes_end_check
    check ((end_name is null) = (end_latitude is null) and (end_latitude is null) = (end_longitude is null))`.execute(
    db,
  );

  await db.schema
    .createTable("customer_technicians")
    .addColumn("customer_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("technician_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("placed_by", "text", (c) => c.notNull().check(sql`placed_by in ('split', 'owner')`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index customer_technicians_technician_idx on customer_technicians (technician_id)`.execute(db);
  await sql`alter table services add column assigned_by_hand boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>) {
  await sql`alter table services drop column if exists assigned_by_hand`.execute(db);
  await db.schema.dropTable("customer_technicians").ifExists().execute();
  await db.schema.dropTable("staff_routes").ifExists().execute();
}
