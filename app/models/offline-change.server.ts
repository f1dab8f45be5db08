import type { OfflineChangesTable, VisitEventKind } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";

export type OfflineIntent = OfflineChangesTable["intent"];
export type AppliedOfflineChange = { status: number; message: string };

/** The answer an applied change got, if this staff member already sent this key. */
export async function findOfflineChange(userId: string, key: string): Promise<AppliedOfflineChange | null> {
  const db = await getDb();
  const row = await db
    .selectFrom("offline_changes")
    .select(["status", "message"])
    .where("user_id", "=", userId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Records an applied change under its key, inside the transaction that applied it. A second
 * transaction with the same key waits on the primary key and then fails, rolling its change back.
 */
export async function recordOfflineChange(
  trx: Db,
  row: { userId: string; key: string; visitId: string; intent: OfflineIntent } & AppliedOfflineChange,
) {
  await trx
    .insertInto("offline_changes")
    .values({
      user_id: row.userId,
      idempotency_key: row.key,
      service_id: row.visitId,
      intent: row.intent,
      status: row.status,
      message: row.message,
    })
    .execute();
}

/** The history lines of a change to the visit itself (not an "On my way" or a skipped e-mail). */
const CHANGES: readonly VisitEventKind[] = [
  "status",
  "rescheduled",
  "return_visit",
  "notes",
  "health_notes",
  "left_plan",
];

/**
 * Whether anyone but this staff member (the office, the system) changed the visit after `since`:
 * every change of a visit's status, date, notes or health notes writes a history line.
 */
export async function visitChangedByOthersSince(visitId: string, userId: string, since: Date): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .selectFrom("service_events")
    .select("id")
    .where("service_id", "=", visitId)
    .where("created_at", ">", since)
    .where("kind", "in", CHANGES)
    .where((eb) => eb.or([eb("actor_id", "is", null), eb("actor_id", "<>", userId)]))
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}
