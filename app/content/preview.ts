/**
 * Live preview, the parts the browser and server.js may know. The cookie marks a browser that
 * opened the site from the Studio's Presentation tool with a valid preview secret; it is signed
 * and checked on the server before any draft is shown (preview.server.ts).
 *
 * Kept equal to PREVIEW_COOKIE in server/preview-frame.js (a test checks it).
 */
export const PREVIEW_COOKIE = "__sanity_preview";
export const PREVIEW_ENABLE_PATH = "/resources/preview";
export const PREVIEW_DISABLE_PATH = "/resources/preview/disable";
