import { sql, type Kysely } from "kysely";

/**
 * Yard locations and the day's route order (docs/decisions/093).
 *
 * A yard's latitude and longitude are both set or both empty, and within the Earth's ranges; the
 * database refuses anything else whatever code writes it. The ZIP code's centroid is a fallback
 * computed when the route is ordered, never stored (it would go stale when the ZIP changes).
 *
 * route_orders holds the order an admin chose by hand for one day and one route: the visits'
 * ids in order. The route key is "all" for now (one route a day); one route per technician later
 * adds keys, not a migration. "Optimise again" deletes the row.
 */
export async function up(db: Kysely<any>) {
  await db.schema
    .alterTable("yard_profiles")
    .addColumn("latitude", "double precision", (c) => c.check(sql`latitude between -90 and 90`))
    .addColumn("longitude", "double precision", (c) => c.check(sql`longitude between -180 and 180`))
    .addColumn("location_updated_at", "timestamptz")
    .execute();
  await sql`alter table yard_profiles add constraint yard_profiles_location_pair_check
    check ((latitude is null) = (longitude is null))`.execute(db);

  await db.schema
    .createTable("route_orders")
    .addColumn("day", "date", (c) => c.notNull())
    .addColumn("route_key", "text", (c) => c.notNull().check(sql`length(route_key) between 1 and 100`))
    .addColumn("visit_ids", sql`uuid[]`, (c) => c.notNull().check(sql`cardinality(visit_ids) <= 1000`))
    .addColumn("updated_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("route_orders_pkey", ["day", "route_key"])
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropTable("route_orders").ifExists().execute();
  await sql`alter table yard_profiles drop constraint if exists yard_profiles_location_pair_check`.execute(db);
  await db.schema
    .alterTable("yard_profiles")
    .dropColumn("location_updated_at")
    .dropColumn("longitude")
    .dropColumn("latitude")
    .execute();
}
