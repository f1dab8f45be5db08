import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { generatedBytes, MiB, MP4_HEADER, multipartBody } from "../helpers/media-bytes";
import { createVisitRow } from "../helpers/portal-data";
import { callRoute, toastOf } from "../helpers/route-calls";
import { startLocalS3, type LocalS3 } from "../helpers/s3-server";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { action } from "~/routes/resources.media-upload";
import { createS3Storage, setStorageForTests } from "~/utils/storage.server";

// Storage failing in the middle of an upload: a real S3 server (s3rver) behind a loopback
// proxy that the test cuts once the first 5 MB part is on its way.
const database = useAppDatabase();
let s3: LocalS3;
let proxy: TcpProxy;

beforeAll(async () => {
  s3 = await startLocalS3();
  proxy = await startTcpProxy(Number(new URL(s3.options.endpoint!).port));
  setStorageForTests(createS3Storage({ ...s3.options, endpoint: `http://127.0.0.1:${proxy.port}` }));
});
afterAll(async () => {
  setStorageForTests(undefined);
  await proxy.close();
  await s3.close();
});

test("the storage connection breaks mid-upload: Upload Failed, no row, no object", async () => {
  const db = database.current.db;
  const admin = await createUser(db, { admin: true });
  const customer = await createUser(db);
  const visit = await createVisitRow(db, customer.id);
  let cutAt = 0;
  proxy.onBytesUp((total) => {
    if (!cutAt && total > 6 * MiB) {
      cutAt = total;
      void proxy.cut();
    }
  });
  const { body, contentType } = multipartBody({
    field: "after",
    filename: "yard.mp4",
    contentType: "video/mp4",
    bytes: generatedBytes(MP4_HEADER, 20 * MiB),
  });
  const response = await callRoute(action, `/resources/media-upload?service=${visit.id}&customer=${customer.id}`, {
    cookie: await sessionCookieFor(admin.id),
    body,
    headers: { "Content-Type": contentType },
  });
  expect(cutAt).toBeGreaterThan(0);
  expect(response.status).toBe(302);
  expect(await toastOf(response)).toMatchObject({
    type: "error",
    message: "Upload Failed",
    description: "Failed to upload file",
  });
  expect(await db.selectFrom("service_images").select("id").where("service_id", "=", visit.id).execute()).toEqual([]);
  // Asked directly, not through the cut proxy: the bucket holds no object.
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.options.bucket }));
  expect(listed.Contents ?? []).toEqual([]);
});
