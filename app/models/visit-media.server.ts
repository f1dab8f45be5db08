import type { NewVisitImage, VisitImage } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";
import { completedVisitsOf } from "./visit.server";

/** A row of `service_images`: a before or after photo or video of a visit. */
export type { VisitImage };

/** SPEC 6: the media of the listed visits, newest first; at most `limit` rows, counted in SQL. */
export async function listMediaForVisits(visitIds: string[], limit?: number): Promise<VisitImage[]> {
  if (visitIds.length === 0) return [];
  const db = await getDb();
  let query = db
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "in", visitIds)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
  if (limit !== undefined) query = query.limit(limit);
  return query.execute();
}

/**
 * The newest `limit` media rows of a customer's `visits` most recent completed visits (as
 * listRecentCompletedVisitsForCustomer lists them), in one query: the dashboard runs it beside
 * the visits query instead of after it.
 */
export async function listRecentMediaForCustomer(
  customerId: string,
  visits: number,
  limit: number,
): Promise<VisitImage[]> {
  const db = await getDb();
  return db
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "in", completedVisitsOf(db, customerId).select("id").limit(visits))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * One media row if `viewer` may see it: office or owner (`allVisits`), a technician for a visit
 * assigned to them in their window (`assignedBetween`), or the customer whose visit it belongs
 * to. Anyone else gets null, exactly as for an id that does not exist.
 */
export async function getMediaForViewer(
  imageId: string,
  viewer: { id: string; allVisits: boolean; assignedBetween?: { from: Date; to: Date } },
): Promise<VisitImage | null> {
  if (!isUuid(imageId)) return null;
  const db = await getDb();
  let query = db
    .selectFrom("service_images")
    .innerJoin("services", "services.id", "service_images.service_id")
    .selectAll("service_images")
    .where("service_images.id", "=", imageId);
  const window = viewer.assignedBetween;
  if (window) {
    query = query.where((eb) =>
      eb.or([
        eb("services.customer_id", "=", viewer.id),
        eb.and([
          eb("services.assigned_to", "=", viewer.id),
          eb("services.service_date", ">=", window.from),
          eb("services.service_date", "<", window.to),
        ]),
      ]),
    );
  } else if (!viewer.allVisits) query = query.where("services.customer_id", "=", viewer.id);
  return (await query.executeTakeFirst()) ?? null;
}

/** Records a stored object as one of a visit's media. */
export async function insertVisitImage(values: NewVisitImage): Promise<VisitImage> {
  const db = await getDb();
  return db.insertInto("service_images").values(values).returningAll().executeTakeFirstOrThrow();
}

/** One visit's media, oldest first (before and after in the order they were taken). */
export async function listMediaForVisit(visitId: string, db?: Db): Promise<VisitImage[]> {
  const handle = db ?? (await getDb());
  return handle
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "=", visitId)
    .orderBy("created_at")
    .orderBy("id")
    .limit(200)
    .execute();
}

/** Removes one media row of a visit and answers it (its storage key), or undefined. */
export async function deleteVisitImage(visitId: string, imageId: string): Promise<VisitImage | undefined> {
  if (!isUuid(imageId)) return undefined;
  const db = await getDb();
  return db
    .deleteFrom("service_images")
    .where("id", "=", imageId)
    .where("service_id", "=", visitId)
    .returningAll()
    .executeTakeFirst();
}
