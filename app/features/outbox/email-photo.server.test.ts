import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { EMAIL_PHOTO_MAX_BYTES, emailPhoto, UnreadablePhotoError } from "./email-photo.server";

describe("emailPhoto", () => {
  test("a picture with more detail than 1 MB holds at 1,600 px still comes out under 1 MB", async () => {
    // Random pixels: the worst case for JPEG (the first encoding is several MB).
    const png = await sharp(randomBytes(1600 * 1200 * 3), { raw: { width: 1600, height: 1200, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    const jpeg = await emailPhoto(Readable.from([png]));
    expect(jpeg.length).toBeLessThanOrEqual(EMAIL_PHOTO_MAX_BYTES);
    const meta = await sharp(jpeg).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.width).toBeLessThanOrEqual(1600);
    expect(meta.width).toBeGreaterThan(400);
  });

  test("applies the EXIF orientation and drops the metadata (no GPS leaves in an e-mail)", async () => {
    const tall = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#336699" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const jpeg = await emailPhoto(Readable.from([tall]));
    const meta = await sharp(jpeg).metadata();
    expect([meta.width, meta.height]).toEqual([200, 300]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  test("bytes that are no picture: UnreadablePhotoError; a storage stream that fails: its own error", async () => {
    await expect(emailPhoto(Readable.from([Buffer.alloc(2048, 1)]))).rejects.toBeInstanceOf(UnreadablePhotoError);
    const failing = new Readable({
      read() {
        this.destroy(new Error("socket hang up"));
      },
    });
    const error = await emailPhoto(failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnreadablePhotoError);
    expect((error as Error).message).toBe("socket hang up");
  });
});
