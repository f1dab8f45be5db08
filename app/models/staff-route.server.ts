import { getDb, type Db } from "~/utils/db.server";

export type StaffRouteRow = {
  userId: string;
  worksRoute: boolean;
  start: { name: string; latitude: number; longitude: number };
  end: { name: string; latitude: number; longitude: number } | null;
  /** Minutes after midnight, business time. */
  dayStartsAt: number;
  dayEndsAt: number;
  /** Bit 0 Sunday … bit 6 Saturday. */
  weekdays: number;
};

type Row = {
  user_id: string;
  works_route: boolean;
  start_name: string;
  start_latitude: number;
  start_longitude: number;
  end_name: string | null;
  end_latitude: number | null;
  end_longitude: number | null;
  day_starts_at: number;
  day_ends_at: number;
  weekdays: number;
};

const COLUMNS = [
  "staff_routes.user_id",
  "staff_routes.works_route",
  "staff_routes.start_name",
  "staff_routes.start_latitude",
  "staff_routes.start_longitude",
  "staff_routes.end_name",
  "staff_routes.end_latitude",
  "staff_routes.end_longitude",
  "staff_routes.day_starts_at",
  "staff_routes.day_ends_at",
  "staff_routes.weekdays",
] as const;

function fromRow(row: Row): StaffRouteRow {
  return {
    userId: row.user_id,
    worksRoute: row.works_route,
    start: { name: row.start_name, latitude: row.start_latitude, longitude: row.start_longitude },
    end:
      row.end_name !== null && row.end_latitude !== null && row.end_longitude !== null
        ? { name: row.end_name, latitude: row.end_latitude, longitude: row.end_longitude }
        : null,
    dayStartsAt: row.day_starts_at,
    dayEndsAt: row.day_ends_at,
    weekdays: row.weekdays,
  };
}

/** A staff member's route settings, or null before the owner set them. */
export async function getStaffRoute(userId: string): Promise<StaffRouteRow | null> {
  const db = await getDb();
  const row = await db.selectFrom("staff_routes").select(COLUMNS).where("user_id", "=", userId).executeTakeFirst();
  return row ? fromRow(row) : null;
}

export async function saveStaffRoute(route: StaffRouteRow, updatedBy: string) {
  const db = await getDb();
  const values = {
    works_route: route.worksRoute,
    start_name: route.start.name,
    start_latitude: route.start.latitude,
    start_longitude: route.start.longitude,
    end_name: route.end?.name ?? null,
    end_latitude: route.end?.latitude ?? null,
    end_longitude: route.end?.longitude ?? null,
    day_starts_at: route.dayStartsAt,
    day_ends_at: route.dayEndsAt,
    weekdays: route.weekdays,
    updated_by: updatedBy,
    updated_at: new Date(),
  };
  await db
    .insertInto("staff_routes")
    .values({ user_id: route.userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}

/**
 * Active staff who work a route, with their names: those working on `weekday` (0 Sunday) when
 * it is given, else everyone with the switch on (moving a stop to someone off that day is allowed).
 */
export async function listRouteWorkers(
  weekday: number | null,
  db?: Db,
): Promise<(StaffRouteRow & { label: string })[]> {
  const handle = db ?? (await getDb());
  let query = handle
    .selectFrom("staff_routes")
    .innerJoin("users", "users.id", "staff_routes.user_id")
    .innerJoin("user_roles", "user_roles.user_id", "users.id")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select([...COLUMNS, "users.email", "profiles.full_name"])
    .where("staff_routes.works_route", "=", true)
    .where("users.deactivated_at", "is", null);
  if (weekday !== null) query = query.where((eb) => eb(eb.ref("staff_routes.weekdays"), "&", 1 << weekday), "<>", 0);
  const rows = await query.orderBy("profiles.full_name").orderBy("users.email").limit(1000).execute();
  return rows.map((row) => ({ ...fromRow(row), label: row.full_name ?? row.email }));
}
