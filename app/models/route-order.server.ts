import { getDb } from "~/utils/db.server";

/** The admin's hand-made order of one day's route: the visits' ids in order, or null. */
export async function getRouteOrder(day: string, routeKey: string): Promise<string[] | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("route_orders")
    .select("visit_ids")
    .where("day", "=", day)
    .where("route_key", "=", routeKey)
    .executeTakeFirst();
  return row ? row.visit_ids : null;
}

export async function saveRouteOrder(day: string, routeKey: string, visitIds: string[], adminId: string) {
  const db = await getDb();
  await db
    .insertInto("route_orders")
    .values({ day, route_key: routeKey, visit_ids: visitIds, updated_by: adminId })
    .onConflict((oc) =>
      oc
        .columns(["day", "route_key"])
        .doUpdateSet({ visit_ids: visitIds, updated_by: adminId, updated_at: new Date() }),
    )
    .execute();
}

/** "Optimise again": forget the hand-made order. */
export async function deleteRouteOrder(day: string, routeKey: string) {
  const db = await getDb();
  await db.deleteFrom("route_orders").where("day", "=", day).where("route_key", "=", routeKey).execute();
}
