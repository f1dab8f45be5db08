import type { MissedReason, SkipReason, VisitStatus } from "../../db/enums";
import { getDb } from "~/utils/db.server";

export type StaffDayVisit = {
  id: string;
  assigned_to: string;
  status: VisitStatus;
  skip_reason: SkipReason | null;
  missed_reason: MissedReason | null;
  on_my_way_at: Date | null;
  completed_at: Date | null;
};

/** Every assigned visit of [from, to), with what the Staff page's productivity counts (decision 128). */
export async function listAssignedVisitsOfDay(from: Date, to: Date): Promise<StaffDayVisit[]> {
  const db = await getDb();
  const rows = await db
    .selectFrom("services")
    .select(["id", "assigned_to", "status", "skip_reason", "missed_reason", "on_my_way_at", "completed_at"])
    .where("service_date", ">=", from)
    .where("service_date", "<", to)
    .where("assigned_to", "is not", null)
    .execute();
  return rows.map((row) => ({ ...row, assigned_to: row.assigned_to! }));
}
