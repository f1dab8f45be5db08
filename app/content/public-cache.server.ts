import { isPreviewRequest } from "./preview.server";
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from "~/utils/cache-headers";

/**
 * Headers for a public page's loader response (document and data requests alike). A preview
 * (drafts) is never public either: the page cache and CDNs skip `private, no-store`. Here in
 * content, beside preview, so that app/utils needs nothing of content (docs/decisions/016).
 */
export function publicCacheHeaders(request: Request): Headers {
  const headers = new Headers({ Vary: "Cookie" });
  const personal = request.headers.has("Cookie") || isPreviewRequest(request);
  headers.set("Cache-Control", personal ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
  return headers;
}
