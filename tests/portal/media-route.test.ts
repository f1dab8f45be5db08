import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { expectedSlice, MiB, MP4_HEADER, patternedBytes } from "../helpers/media-bytes";
import { createVisitRow } from "../helpers/portal-data";
import { callRoute } from "../helpers/route-calls";
import { startLocalS3, type LocalS3 } from "../helpers/s3-server";
import { storeVisitMedia } from "~/features/media/visit-media.server";
import { loader } from "~/routes/resources.media.$imageId";
import { createFolderStorage, createS3Storage, setStorageForTests, type StorageBackend } from "~/utils/storage.server";

const database = useAppDatabase();
const SIZE = 6 * MiB + 77;

let s3: LocalS3;
let folderRoot: string;
let owner: string;
let stranger: string;
let admin: string;

beforeAll(async () => {
  s3 = await startLocalS3();
  folderRoot = mkdtempSync(path.join(os.tmpdir(), "media-route-"));
  const db = database.current.db;
  const customer = await createUser(db);
  owner = await sessionCookieFor(customer.id);
  stranger = await sessionCookieFor((await createUser(db)).id);
  admin = await sessionCookieFor((await createUser(db, { admin: true })).id);
});

afterAll(async () => {
  setStorageForTests(undefined);
  await s3?.close();
  rmSync(folderRoot, { recursive: true, force: true });
});

describe.each(["folder", "s3"] as const)("streaming from the %s backend", (kind) => {
  let imageId: string;

  beforeAll(async () => {
    const storage: StorageBackend = kind === "s3" ? createS3Storage(s3.options) : createFolderStorage(folderRoot);
    setStorageForTests(storage);
    const db = database.current.db;
    const customerId = (await db.selectFrom("users").select("id").orderBy("created_at").executeTakeFirstOrThrow()).id;
    const visit = await createVisitRow(db, customerId);
    const result = await storeVisitMedia({
      visit,
      imageType: "after",
      source: patternedBytes(MP4_HEADER, SIZE)[Symbol.asyncIterator](),
      uploadedBy: customerId,
    });
    if (!result.ok) throw new Error(result.reason);
    imageId = result.image.id;
  });

  const get = (headers: Record<string, string> = {}, cookie = owner) =>
    callRoute(loader, `/resources/media/${imageId}`, { cookie, headers, params: { imageId } });

  test("the whole file: 200 with its type, length, and private caching", async () => {
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("video/mp4");
    expect(response.headers.get("Content-Length")).toBe(String(SIZE));
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("Cache-Control")).toMatch(/^private/);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.byteLength).toBe(SIZE);
    expect(body.subarray(0, 4096)).toEqual(expectedSlice(MP4_HEADER, 0, 4095));
    expect(body.subarray(SIZE - 4096)).toEqual(expectedSlice(MP4_HEADER, SIZE - 4096, SIZE - 1));
  });

  test.each([
    ["bytes=0-1", 0, 1],
    ["bytes=1000-1999", 1000, 1999],
    ["bytes=5242870-5242899", 5242870, 5242899], // across S3's 5 MB part boundary
    [`bytes=-100`, SIZE - 100, SIZE - 1],
    [`bytes=${SIZE - 10}-`, SIZE - 10, SIZE - 1],
  ])("%s: 206 with exactly those bytes", async (range, start, end) => {
    const response = await get({ Range: range });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/${SIZE}`);
    expect(response.headers.get("Content-Length")).toBe(String(end - start + 1));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(expectedSlice(MP4_HEADER, start, end));
  });

  test("a player's open-ended range gets a bounded chunk", async () => {
    const response = await get({ Range: "bytes=0-" });
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes 0-${4 * MiB - 1}/${SIZE}`);
    expect((await response.arrayBuffer()).byteLength).toBe(4 * MiB);
  });

  test("a range past the end: 416", async () => {
    const response = await get({ Range: `bytes=${SIZE}-` });
    expect(response.status).toBe(416);
    expect(response.headers.get("Content-Range")).toBe(`bytes */${SIZE}`);
  });

  test("a revalidation: 304", async () => {
    const first = await get();
    await first.arrayBuffer();
    const again = await get({ "If-None-Match": first.headers.get("ETag")! });
    expect(again.status).toBe(304);
  });

  test("the admin may range too; another customer gets 404 even with a Range header", async () => {
    expect((await get({ Range: "bytes=0-9" }, admin)).status).toBe(206);
    const denied = await get({ Range: "bytes=0-9" }, stranger);
    expect(denied.status).toBe(404);
    expect(denied.headers.get("Content-Range")).toBeNull();
  });
});
