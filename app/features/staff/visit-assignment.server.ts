import { staffLabels } from "~/models/staff.server";
import { assignVisit, recordVisitEvent } from "~/models/visit.server";
import { getDb } from "~/utils/db.server";

/**
 * Sets who works a visit and, when that changed, says so in its History ("Assigned: Tess → Tom"),
 * in one transaction: the event names the assignee the row really had (decision 128).
 * Returns false for a visit that does not exist.
 */
export async function reassignVisit(visitId: string, to: string | null, actorId: string): Promise<boolean> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const result = await assignVisit(trx, visitId, to);
    if (!result) return false;
    if (result.previous === to) return true;
    const labels = await staffLabels(
      trx,
      [result.previous, to].filter((id): id is string => id !== null),
    );
    const name = (id: string | null) => (id ? (labels.get(id) ?? "a deleted account") : "nobody");
    await recordVisitEvent(trx, {
      visitId,
      actorId,
      kind: "assigned",
      detail: `Assigned: ${name(result.previous)} → ${name(to)}`,
    });
    return true;
  });
}
