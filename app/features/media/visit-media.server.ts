import { randomInt } from "node:crypto";
import type { ImageType } from "./media-constants";
import { insertVisitImage, type VisitImage } from "~/models/visit-media.server";
import { errorFields, log } from "~/utils/logger.server";
import { getStorage, storeUpload, type MediaKind, type StorageBackend } from "~/utils/storage.server";

/** SPEC 3: a URL ending in one of these is shown as a video, anything else as an image. */
const VIDEO_EXTENSIONS = ["mp4", "mov", "avi", "webm"];

export function mediaKindOf(image: Pick<VisitImage, "image_url" | "content_type">): MediaKind {
  const extension = image.image_url.split(".").pop()?.toLowerCase() ?? "";
  if (VIDEO_EXTENSIONS.includes(extension)) return "video";
  // Other sniffed videos (mkv, 3gp, ...) would be a broken <img>; their stored type decides.
  return image.content_type?.startsWith("video/") ? "video" : "image";
}

let lastTimestamp = 0;
/** Milliseconds, but never the same twice in this process: two uploads never share a key. */
function uniqueTimestamp() {
  lastTimestamp = Math.max(Date.now(), lastTimestamp + 1);
  return lastTimestamp;
}

/**
 * SPEC 7: {userId}/{visitId}/{before|after}_{timestamp}.{extension}, the timestamp followed
 * by six random digits: two machines (each with its own counter) uploading to one visit in
 * the same millisecond would otherwise share a key, and S3 would keep only the last file.
 */
export function mediaKey(customerId: string, visitId: string, imageType: ImageType, extension: string) {
  // userId is the visit's customer (not the uploading admin): a customer's media sit under
  // their own prefix, whoever uploaded them.
  const random = String(randomInt(0, 1_000_000)).padStart(6, "0");
  return `${customerId}/${visitId}/${imageType}_${uniqueTimestamp()}${random}.${extension}`;
}

export type StoreMediaResult =
  | { ok: true; image: VisitImage; kind: MediaKind }
  | { ok: false; reason: "empty" | "too-large" | "not-media" | "failed" };

/**
 * Streams an uploaded file to storage, then records it. The object and its row exist together
 * or not at all: a refused or failed upload inserts nothing, and a failed insert deletes the
 * object again.
 */
export async function storeVisitMedia(input: {
  visit: { id: string; customer_id: string };
  imageType: ImageType;
  source: AsyncIterator<Uint8Array>;
  uploadedBy: string;
  storage?: StorageBackend;
}): Promise<StoreMediaResult> {
  const storage = input.storage ?? getStorage();
  const stored = await storeUpload(storage, input.source, {
    keyFor: (extension) => mediaKey(input.visit.customer_id, input.visit.id, input.imageType, extension),
  });
  if (!stored.ok) return stored;

  try {
    const image = await insertVisitImage({
      service_id: input.visit.id,
      image_url: stored.key,
      image_type: input.imageType,
      content_type: stored.contentType,
      size_bytes: stored.size,
      uploaded_by: input.uploadedBy,
    });
    return { ok: true, image, kind: stored.kind };
  } catch (error) {
    log.error("media.insert_failed", { key: stored.key, ...errorFields(error) });
    await storage
      .delete(stored.key)
      .catch((deleteError) => log.error("media.orphan", { key: stored.key, ...errorFields(deleteError) }));
    return { ok: false, reason: "failed" };
  }
}
