import { createCookie } from "@remix-run/node";
import { createClient } from "@sanity/client";
import { getEnv } from "~/utils/env.server";
import { PREVIEW_COOKIE } from "./preview";
import { currentRequestContext, runInRequestContext } from "./request-context.server";

/**
 * Live preview from the Studio's Presentation tool. The Studio opens
 * /resources/preview?sanity-preview-secret=...; the app checks that secret with Sanity
 * (@sanity/preview-url-secret) and, if valid, sets a signed session cookie: from then on that
 * browser, and only it, reads drafts, uncached, with visual-editing overlays. Preview needs a
 * Sanity project and a read token; with the bundled dataset there are no drafts to show.
 */

export function previewConfig() {
  const env = getEnv();
  const available = Boolean(env.SANITY_PROJECT_ID && env.SANITY_DATASET && env.SANITY_API_READ_TOKEN);
  return {
    available,
    studioUrl: env.SANITY_STUDIO_URL ?? null,
    /** Why preview is off, in words the owner can act on. */
    unavailableReason: available
      ? null
      : env.SANITY_PROJECT_ID
        ? "Preview is off: set SANITY_API_READ_TOKEN (a Viewer token of the Sanity project) to show drafts."
        : "Preview is off: this site shows the bundled content. Connect a Sanity project (SANITY_PROJECT_ID, SANITY_DATASET, SANITY_API_READ_TOKEN) to preview drafts.",
  };
}

function previewCookie() {
  const env = getEnv();
  const https = env.SITE_URL.startsWith("https://");
  return createCookie(PREVIEW_COOKIE, {
    // No maxAge: a session cookie, gone when the browser closes.
    httpOnly: true,
    path: "/",
    // In the Studio the site runs in an iframe of another site: over HTTPS the cookie must be
    // SameSite=None to be sent there. Locally (http, both on localhost) Lax is same-site enough.
    sameSite: https ? "none" : "lax",
    secure: https,
    secrets: [env.SESSION_SECRET],
  });
}

/**
 * Fast and conservative, for caches: true when the request carries the preview cookie at all
 * (signed or not) while preview is possible. A cache skips such requests; whether drafts are
 * actually shown is decided by `readPreviewSession`, which checks the signature.
 */
export function isPreviewRequest(request: Request): boolean {
  if (!previewConfig().available) return false;
  const cookies = request.headers.get("Cookie") ?? "";
  return cookies.split(/;\s*/).some((pair) => pair.startsWith(`${PREVIEW_COOKIE}=`));
}

/** True when the request carries a valid, signed preview cookie and preview is possible. */
export async function readPreviewSession(request: Request): Promise<boolean> {
  if (!isPreviewRequest(request)) return false;
  return (await previewCookie().parse(request.headers.get("Cookie"))) === true;
}

export const startPreviewSession = () => previewCookie().serialize(true);
export const endPreviewSession = () => previewCookie().serialize(false, { maxAge: 0 });

/** Whether the request being served previews drafts (set by `runWithRequestContext`). */
export const isPreviewing = () => currentRequestContext().preview;

/** Runs one request (its loaders, actions and render) knowing whether it previews drafts. */
export async function runWithRequestContext<T>(request: Request, handle: () => Promise<T>): Promise<T> {
  const preview = await readPreviewSession(request);
  return runInRequestContext({ preview }, handle);
}

/** A client that may read the preview secret documents (perspective raw, token, no CDN). */
export function previewSecretClient() {
  const env = getEnv();
  if (!env.SANITY_PROJECT_ID || !env.SANITY_DATASET || !env.SANITY_API_READ_TOKEN) return null;
  return createClient({
    projectId: env.SANITY_PROJECT_ID,
    dataset: env.SANITY_DATASET,
    apiVersion: env.SANITY_API_VERSION,
    useCdn: false,
    token: env.SANITY_API_READ_TOKEN,
    ...(env.SANITY_API_HOST ? { apiHost: env.SANITY_API_HOST, useProjectHostname: false } : {}),
  });
}
