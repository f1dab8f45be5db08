/**
 * Where the embedded image route lives. Client-safe: URLs only. With no Sanity project the image
 * URL builder points here instead of cdn.sanity.io, so the same `@sanity/image-url` calls (and the
 * same components) work in both modes: `/resources/image-cdn/images/<project>/<dataset>/<file>?w=...`.
 */
export const EMBEDDED_IMAGE_BASE_URL = "/resources/image-cdn";
export const EMBEDDED_PROJECT_ID = "embedded";
export const EMBEDDED_DATASET = "production";
