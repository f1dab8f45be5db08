import type { LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { getMediaForViewer } from "~/models/visit-media.server";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { mediaViewerOf } from "~/features/staff/staff-access.server";
import { log } from "~/utils/logger.server";
import { getStorage, parseRangeHeader } from "~/utils/storage.server";

// The adapter writes a response body without waiting for a slow client, so one response
// holds at most this much in memory; a player's open-ended range gets a chunk this big.
const MAX_OPEN_RANGE_BYTES = 4 * 1024 * 1024;

// Anyone who may not see the media gets exactly what a missing id gets, so ids cannot be
// probed. Signed-out visitors too: this URL sits in <img>/<video>, where a redirect to the
// sign-in page would only be a broken image.
const notFound = () =>
  new Response("Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain", "Cache-Control": "private, no-store" },
  });

/** Streams one before/after photo or video to its customer or staff who may see it, with Range support. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request, context);
  if (!user) return notFound();
  // A staff role counts only in a session that passed its second step (decision 024): staff
  // whose two-step is off, or who signed in before turning it on, see only their own.
  const image = await getMediaForViewer(params.imageId ?? "", mediaViewerOf(user));
  if (!image) return notFound();

  const storage = getStorage();
  const size = image.size_bytes != null ? Number(image.size_bytes) : (await storage.stat(image.image_url))?.size;
  if (size == null) {
    log.error("media.object_missing", { imageId: image.id });
    return notFound();
  }

  const etag = `"${image.id}"`;
  const headers = new Headers({
    "Content-Type": image.content_type ?? "application/octet-stream",
    "Cache-Control": "private, max-age=3600",
    "Accept-Ranges": "bytes",
    ETag: etag,
    Vary: "Cookie",
  });
  // An object never changes under its key, so the id is a strong validator.
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });

  const rangeRequest = parseRangeHeader(request.headers.get("Range"), size, MAX_OPEN_RANGE_BYTES);
  if (rangeRequest.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const range = rangeRequest.kind === "partial" ? rangeRequest.range : undefined;
  const object = await storage.get(image.image_url, range);
  if (!object) {
    log.error("media.object_missing", { imageId: image.id });
    return notFound();
  }
  // A player that seeks drops the request; stop reading from storage then.
  request.signal.addEventListener("abort", () => object.body.destroy(), { once: true });

  const body = createReadableStreamFromReadable(object.body);
  if (!range) {
    headers.set("Content-Length", String(size));
    return new Response(body, { status: 200, headers });
  }
  headers.set("Content-Length", String(range.end - range.start + 1));
  headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  return new Response(body, { status: 206, headers });
}
