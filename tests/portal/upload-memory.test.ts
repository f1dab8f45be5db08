import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { generatedBytes, MiB, MP4_HEADER, multipartBody } from "../helpers/media-bytes";
import { measureUpload, withCheckpoints } from "../helpers/memory-sampler";
import { createVisitRow } from "../helpers/portal-data";
import { callRoute, toastOf } from "../helpers/route-calls";
import { action } from "~/routes/admin-dashboard._index";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

// The figures that matter are in bench/upload-memory.ts (`npm run bench`); this test guards
// against a change that would hold the upload in memory, with a generous bound.
const database = useAppDatabase();
const VIDEO_BYTES = 40 * MiB;
let uploads: string;

beforeAll(() => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "upload-memory-"));
  setStorageForTests(createFolderStorage(uploads));
});

afterAll(() => {
  setStorageForTests(undefined);
  rmSync(uploads, { recursive: true, force: true });
});

test("a 40 MB video streams through the admin action without being held in memory", async () => {
  const db = database.current.db;
  const admin = await createUser(db, { admin: true });
  const customer = await createUser(db);
  const visit = await createVisitRow(db, customer.id);
  const cookie = await sessionCookieFor(admin.id);

  const { result: response, report } = await measureUpload((checkpoint) => {
    const { body, contentType } = multipartBody({
      field: "after",
      filename: "yard.mp4",
      contentType: "video/mp4",
      bytes: withCheckpoints(
        generatedBytes(MP4_HEADER, VIDEO_BYTES, 64 * 1024),
        [10, 20, 30, 39].map((n) => n * MiB),
        checkpoint,
      ),
    });
    return callRoute(action, `/admin-dashboard?index&service=${visit.id}`, {
      cookie,
      body,
      headers: { "Content-Type": contentType },
    });
  });

  expect(await toastOf(response)).toMatchObject({ description: "after video uploaded successfully" });
  const row = await db
    .selectFrom("service_images")
    .selectAll()
    .where("service_id", "=", visit.id)
    .executeTakeFirstOrThrow();
  expect(statSync(path.join(uploads, row.image_url)).size).toBe(VIDEO_BYTES);
  expect(Object.keys(report.liveGrowthMiB)).toHaveLength(4);
  // Buffered, 39 MiB received would be at least 39 MiB live; streamed it is a few chunks.
  expect(report.maxLiveGrowthMiB).toBeLessThan(16);
  console.info("40 MB upload through the admin action:", JSON.stringify(report));
});
