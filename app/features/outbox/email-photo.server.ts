import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadSharp } from "~/utils/sharp.server";

/** An e-mailed photo: a JPEG of at most this many pixels on its long side... */
export const EMAIL_PHOTO_MAX_SIDE = 1600;
/** ...and at most this many bytes, so that it passes every mail server and mailbox quota. */
export const EMAIL_PHOTO_MAX_BYTES = 1024 * 1024;
const QUALITIES = [82, 70, 58, 46];

/** Thrown when the stored bytes are not a picture sharp can read: the e-mail goes without it. */
export class UnreadablePhotoError extends Error {}

/**
 * A copy of an uploaded photo fit for an e-mail (docs/decisions/035): upright (EXIF orientation
 * applied, then every metadata field dropped, GPS included), at most 1,600 px, a JPEG of at most
 * 1 MB. The original (up to 50 MB) goes into sharp's stream input, which gathers it into one
 * Buffer before libvips decodes it: the decode dominates either way (bench/email-photo-memory.ts:
 * a temporary file instead measured no less), and what this bounds is the message (the original
 * went base64-encoded into the e-mail, and failed over 10 MB). Storage errors reject as they are
 * (the send is retried).
 */
export async function emailPhoto(body: Readable): Promise<Buffer> {
  const sharp = await loadSharp();
  const resize = sharp({ sequentialRead: true })
    .rotate()
    .resize({ width: EMAIL_PHOTO_MAX_SIDE, height: EMAIL_PHOTO_MAX_SIDE, fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: QUALITIES[0], mozjpeg: true });
  // Resolves once sharp has the whole original; a storage stream's failure rejects here.
  await pipeline(body, resize);
  let jpeg: Buffer;
  try {
    jpeg = await resize.toBuffer();
  } catch (error) {
    throw new UnreadablePhotoError(error instanceof Error ? error.message : String(error));
  }
  // Rarely over 1 MB (a very detailed picture): encoded again from the small copy, at a lower
  // quality, then with fewer pixels, until it fits.
  const first = jpeg;
  const { width = EMAIL_PHOTO_MAX_SIDE } = await sharp(first).metadata();
  for (let scale = 1; jpeg.length > EMAIL_PHOTO_MAX_BYTES && width * scale >= 64; scale *= 0.75) {
    for (const quality of QUALITIES.slice(scale === 1 ? 1 : 0)) {
      jpeg = await sharp(first)
        .resize({ width: Math.round(width * scale) })
        .jpeg({ quality, mozjpeg: true })
        .toBuffer();
      if (jpeg.length <= EMAIL_PHOTO_MAX_BYTES) break;
    }
  }
  return jpeg;
}
