import type { Kysely, Selectable } from "kysely";
import type { Database, NewServiceImage, ServiceImagesTable } from "../../db/schema";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export type ServiceImage = Selectable<ServiceImagesTable>;

/** SPEC 6: the media of the listed services, newest first; at most `limit` rows, counted in SQL. */
export async function listMediaForServices(serviceIds: string[], limit?: number): Promise<ServiceImage[]> {
  if (serviceIds.length === 0) return [];
  const db = await getDb();
  let query = db
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "in", serviceIds)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
  if (limit !== undefined) query = query.limit(limit);
  return query.execute();
}

/**
 * The newest `limit` media rows of a customer's `visits` most recent visits (by visit date, as
 * listRecentServicesForCustomer orders them), in one query: the dashboard runs it beside the
 * visits query instead of after it.
 */
export async function listRecentMediaForCustomer(
  customerId: string,
  visits: number,
  limit: number,
): Promise<ServiceImage[]> {
  const db = await getDb();
  return db
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "in", (eb) =>
      eb
        .selectFrom("services")
        .select("id")
        .where("customer_id", "=", customerId)
        .orderBy("service_date", "desc")
        .orderBy("id")
        .limit(visits),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * One media row if `viewer` may see it: an admin, or the customer whose service it belongs to.
 * Anyone else gets null, exactly as for an id that does not exist.
 */
export async function getMediaForViewer(
  imageId: string,
  viewer: { id: string; isAdmin: boolean },
): Promise<ServiceImage | null> {
  if (!isUuid(imageId)) return null;
  const db = await getDb();
  let query = db
    .selectFrom("service_images")
    .innerJoin("services", "services.id", "service_images.service_id")
    .selectAll("service_images")
    .where("service_images.id", "=", imageId);
  if (!viewer.isAdmin) query = query.where("services.customer_id", "=", viewer.id);
  return (await query.executeTakeFirst()) ?? null;
}

/** Records a stored object as one of a service's media. */
export async function insertServiceImage(values: NewServiceImage): Promise<ServiceImage> {
  const db = await getDb();
  return db.insertInto("service_images").values(values).returningAll().executeTakeFirstOrThrow();
}

/** One visit's media, oldest first (before and after in the order they were taken). */
export async function listMediaForService(serviceId: string, db?: Kysely<Database>): Promise<ServiceImage[]> {
  const handle = db ?? (await getDb());
  return handle
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "=", serviceId)
    .orderBy("created_at")
    .orderBy("id")
    .limit(200)
    .execute();
}

/** Removes one media row of a visit and answers it (its storage key), or undefined. */
export async function deleteServiceImage(serviceId: string, imageId: string): Promise<ServiceImage | undefined> {
  if (!isUuid(imageId)) return undefined;
  const db = await getDb();
  return db
    .deleteFrom("service_images")
    .where("id", "=", imageId)
    .where("service_id", "=", serviceId)
    .returningAll()
    .executeTakeFirst();
}
