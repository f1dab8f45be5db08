/**
 * SPEC 7: an upload may be at most 50 MB. Client-safe: the upload form checks it in the browser
 * before sending, and the storage module enforces it while the bytes stream.
 */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
