import type { Kysely, Selectable } from "kysely";
import type { Database, NewServiceImage, ServiceImagesTable } from "../../db/schema";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export type ServiceImage = Selectable<ServiceImagesTable>;

/** SPEC 6: the media of the listed services, newest first. */
export async function listMediaForServices(serviceIds: string[]): Promise<ServiceImage[]> {
  if (serviceIds.length === 0) return [];
  const db = await getDb();
  return db
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "in", serviceIds)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
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
