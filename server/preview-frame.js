// Live preview: the Studio's Presentation tool shows the site in an iframe. The site refuses to
// be framed (frame-ancestors 'none', X-Frame-Options DENY) except, in preview only, by the
// Studio's own origin (SANITY_STUDIO_URL). "In preview" here means the request opens preview
// (/resources/preview, where the secret is checked) or carries the preview cookie; the app
// checks the cookie's signature before it shows any draft. An unsigned cookie only makes that
// visitor's own pages frameable by the Studio's origin, which is no one else's risk.

/** Equal to PREVIEW_COOKIE in app/content/preview.ts (a test checks it). */
export const PREVIEW_COOKIE = "__sanity_preview";
const PREVIEW_PATHS = new Set(["/resources/preview", "/resources/preview/disable"]);

function hasCookie(header, name) {
  return (header ?? "").split(/;\s*/).some((pair) => pair.startsWith(`${name}=`));
}

/**
 * The origin that may frame this response, or null for none.
 * @param {{ path: string, headers: { cookie?: string } }} req
 * @param {string | undefined} studioUrl
 */
export function previewFrameAncestor(req, studioUrl = process.env.SANITY_STUDIO_URL) {
  if (!studioUrl) return null;
  if (!PREVIEW_PATHS.has(req.path) && !hasCookie(req.headers.cookie, PREVIEW_COOKIE)) return null;
  try {
    return new URL(studioUrl).origin;
  } catch {
    return null;
  }
}
