import { json, unstable_parseMultipartFormData } from "@remix-run/node";
import { IMAGE_TYPES, type ImageType } from "./media-constants";
import { storeVisitMedia, type StoreMediaResult } from "./visit-media.server";
import { safeAdminBack } from "./upload-back";
import { adminDashboardUrl } from "./admin-dashboard-url";
import { getVisit } from "~/models/visit.server";
import { errorFields, log } from "~/utils/logger.server";
import { drain } from "~/utils/storage.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

type UploadOutcome =
  | { kind: "no-visit"; back: string }
  | { kind: "no-file" | "malformed"; back: string }
  | { kind: "stored"; back: string; result: StoreMediaResult; imageType: ImageType };

const isImageType = (name: string): name is ImageType => (IMAGE_TYPES as readonly string[]).includes(name);

/** Reads what is left of a request body so the browser, still sending, gets the answer. */
export async function discardRequestBody(request: Request) {
  if (!request.body || request.bodyUsed) return;
  const reader = request.body.getReader();
  await drain({ next: () => reader.read() as Promise<IteratorResult<Uint8Array>> }).catch(() => undefined);
}

/** Whether the request comes from the upload form's script (which wants JSON, not a redirect). */
export const wantsUploadJson = (request: Request) => request.headers.get("X-Requested-With") === "XMLHttpRequest";

/**
 * One before/after upload for the visit named in the URL (`?service=`): streamed to storage,
 * recorded, and answered with the SPEC's toast on the way back to the upload tab. The upload
 * form's script gets JSON (`{ redirectTo }`) instead of the redirect, which it cannot follow
 * without losing the toast.
 */
export async function handleMediaUpload(request: Request, adminId: string) {
  const outcome = await uploadMedia(request, adminId, new URL(request.url));
  const response = await uploadResponse(outcome);
  if (!wantsUploadJson(request)) return response;
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  // Success or refusal, the toast is in the cookie: the script loads the target, which shows it.
  return json({ redirectTo: response.headers.get("Location") }, { headers });
}

/** One upload for the visit of `?service=`, stored and recorded (also a phone's queued photo). */
export async function uploadMedia(request: Request, adminId: string, url: URL): Promise<UploadOutcome> {
  // The current visit comes from the form's URL, so it is known before the file arrives.
  const visit = await getVisit(url.searchParams.get("service") ?? "");
  if (!visit) {
    await discardRequestBody(request);
    return { kind: "no-visit", back: adminDashboardUrl("upload", null, url.searchParams.get("customer")) };
  }
  // The visit page's forms ask to come back to it; the upload tab is the default.
  const back = safeAdminBack(url.searchParams.get("back")) ?? adminDashboardUrl("upload", visit.id, visit.customer_id);
  let stored: { result: StoreMediaResult; imageType: ImageType } | null = null;
  try {
    await unstable_parseMultipartFormData(request, async (part) => {
      const data = part.data[Symbol.asyncIterator]();
      // One file per request, from a "before" or "after" input; everything else is skipped
      // (read and dropped: the parser would otherwise buffer an unread part in memory).
      if (stored || !part.filename || !isImageType(part.name)) {
        await drain(data, part.filename ? undefined : 64 * 1024);
        return undefined;
      }
      const imageType = part.name;
      const result = await storeVisitMedia({ visit, imageType, source: data, uploadedBy: adminId });
      stored = { result, imageType };
      if (!result.ok) await drain(data);
      return undefined;
    });
  } catch (error) {
    log.warn("media.upload_body_failed", errorFields(error));
    if (!stored) return { kind: "malformed", back };
  }
  if (!stored) return { kind: "no-file", back };
  return { kind: "stored", back, ...(stored as { result: StoreMediaResult; imageType: ImageType }) };
}

function uploadResponse(outcome: UploadOutcome) {
  const uploadFailed = { message: "Upload Failed", description: "Failed to upload file" };
  if (outcome.kind === "no-visit") {
    return redirectWithError(outcome.back, {
      message: "No Service Selected",
      description: "Please create a service first",
    });
  }
  if (outcome.kind !== "stored") return redirectWithError(outcome.back, uploadFailed);
  const { result, imageType } = outcome;
  if (result.ok) {
    log.info("media.uploaded", { imageId: result.image.id, kind: result.kind, bytes: result.image.size_bytes });
    return redirectWithSuccess(outcome.back, {
      message: "Success",
      description: `${imageType} ${result.kind} uploaded successfully`,
    });
  }
  if (result.reason === "too-large") {
    return redirectWithError(outcome.back, { message: "File Too Large", description: "Maximum file size is 50MB" });
  }
  if (result.reason === "not-media") {
    return redirectWithError(outcome.back, {
      message: "Upload Failed",
      description: "Only images and videos can be uploaded",
    });
  }
  return redirectWithError(outcome.back, uploadFailed);
}
