import type { Selectable } from "kysely";
import type { ImageType, ServiceImagesTable } from "../../db/schema";
import { isUuid } from "./service.server";
import { getDb } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { getStorage, storeUpload, type MediaKind, type StorageBackend } from "~/utils/storage.server";

export type ServiceImage = Selectable<ServiceImagesTable>;

/** SPEC 3: a URL ending in one of these is shown as a video, anything else as an image. */
const VIDEO_EXTENSIONS = ["mp4", "mov", "avi", "webm"];

export function mediaKindOf(image: Pick<ServiceImage, "image_url" | "content_type">): MediaKind {
  const extension = image.image_url.split(".").pop()?.toLowerCase() ?? "";
  if (VIDEO_EXTENSIONS.includes(extension)) return "video";
  // Other sniffed videos (mkv, 3gp, ...) would be a broken <img>; their stored type decides.
  return image.content_type?.startsWith("video/") ? "video" : "image";
}

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
export async function listRecentMediaForCustomer(customerId: string, visits: number, limit: number): Promise<ServiceImage[]> {
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

let lastTimestamp = 0;
/** Milliseconds, but never the same twice in this process: two uploads never share a key. */
function uniqueTimestamp() {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

/** SPEC 7: {userId}/{serviceId}/{before|after}_{timestamp}.{extension} */
export function mediaKey(customerId: string, serviceId: string, imageType: ImageType, extension: string) {
  // userId is the service's customer (not the uploading admin): a customer's media sit under
  // their own prefix, whoever uploaded them.
  return `${customerId}/${serviceId}/${imageType}_${uniqueTimestamp()}.${extension}`;
}

export type StoreMediaResult =
  | { ok: true; image: ServiceImage; kind: MediaKind }
  | { ok: false; reason: "empty" | "too-large" | "not-media" | "failed" };

/**
 * Streams an uploaded file to storage, then records it. The object and its row exist together
 * or not at all: a refused or failed upload inserts nothing, and a failed insert deletes the
 * object again.
 */
export async function storeServiceMedia(input: {
  service: { id: string; customer_id: string };
  imageType: ImageType;
  source: AsyncIterator<Uint8Array>;
  uploadedBy: string;
  storage?: StorageBackend;
}): Promise<StoreMediaResult> {
  const storage = input.storage ?? getStorage();
  const stored = await storeUpload(storage, input.source, {
    keyFor: (extension) => mediaKey(input.service.customer_id, input.service.id, input.imageType, extension),
  });
  if (!stored.ok) return stored;

  try {
    const db = await getDb();
    const image = await db
      .insertInto("service_images")
      .values({
        service_id: input.service.id,
        image_url: stored.key,
        image_type: input.imageType,
        content_type: stored.contentType,
        size_bytes: stored.size,
        uploaded_by: input.uploadedBy,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ok: true, image, kind: stored.kind };
  } catch (error) {
    log.error("media.insert_failed", { key: stored.key, ...errorFields(error) });
    await storage
      .delete(stored.key)
      .catch((deleteError) => log.error("media.orphan", { key: stored.key, ...errorFields(deleteError) }));
    return { ok: false, reason: "failed" };
  }
}
