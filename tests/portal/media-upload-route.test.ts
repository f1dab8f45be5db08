import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { makePng, multipartBody } from "../helpers/media-bytes";
import { createVisitRow } from "../helpers/portal-data";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { action, loader } from "~/routes/resources.media-upload";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

// The upload forms post to this resource route, with JavaScript (XMLHttpRequest, for the
// progress bar) and without. The script must get JSON, never the dashboard's HTML: that mix-up
// once showed "Success" and "Upload Failed" together.
const database = useAppDatabase();
const db = () => database.current.db;

let uploads: string;
let admin: TestUser;
let customer: TestUser;
let adminCookie: string;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true });
  customer = await createUser(db(), { fullName: "Rita Route" });
  adminCookie = await sessionCookieFor(admin.id);
});

beforeEach(() => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "upload-route-"));
  setStorageForTests(createFolderStorage(uploads));
  return () => {
    setStorageForTests(undefined);
    rmSync(uploads, { recursive: true, force: true });
  };
});

const storedFileCount = () =>
  readdirSync(uploads, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
const imagesOf = (visitId: string) =>
  db().selectFrom("service_images").selectAll().where("service_id", "=", visitId).execute();

function post(visitId: string, options: { cookie?: string; xhr?: boolean; bytes?: Uint8Array; field?: string } = {}) {
  const bytes = options.bytes ?? makePng(8, 8);
  const { body, contentType } = multipartBody({
    field: options.field ?? "after",
    filename: "yard.png",
    contentType: "image/png",
    bytes: (async function* () {
      yield bytes;
    })(),
  });
  return callRoute(action, `/resources/media-upload?service=${visitId}`, {
    cookie: options.cookie,
    body,
    headers: { "Content-Type": contentType, ...(options.xhr ? { "X-Requested-With": "XMLHttpRequest" } : {}) },
  });
}

describe("POST /resources/media-upload", () => {
  test("from the script: JSON with the target, the success toast only, one row", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await post(visit.id, { cookie: adminCookie, xhr: true });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await response.clone().json()).toEqual({
      redirectTo: `/admin-dashboard?tab=upload&service=${visit.id}&customer=${customer.id}`,
    });
    const toast = await toastOf(response);
    expect(toast).toMatchObject({
      type: "success",
      message: "Success",
      description: "after image uploaded successfully",
    });
    expect(toast?.message).not.toMatch(/Failed/);
    expect(await imagesOf(visit.id)).toHaveLength(1);
    expect(storedFileCount()).toBe(1);
  });

  test("from the script, refused: JSON with the target and the failure toast only, nothing stored", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await post(visit.id, {
      cookie: adminCookie,
      xhr: true,
      bytes: new TextEncoder().encode("just text"),
    });
    expect(response.status).toBe(200);
    expect(await response.clone().json()).toHaveProperty("redirectTo");
    const toast = await toastOf(response);
    expect(toast).toMatchObject({ type: "error", message: "Upload Failed" });
    expect(await imagesOf(visit.id)).toHaveLength(0);
    expect(storedFileCount()).toBe(0);
  });

  test("without JavaScript: a redirect back to the upload tab with the toast", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await post(visit.id, { cookie: adminCookie, field: "before" });
    expect(response.status).toBe(302);
    expect(locationOf(response)).toBe(`/admin-dashboard?tab=upload&service=${visit.id}&customer=${customer.id}`);
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      description: "before image uploaded successfully",
    });
    expect(await imagesOf(visit.id)).toHaveLength(1);
  });

  test("refuses customers and the anonymous, storing nothing", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const customerResponse = await post(visit.id, { cookie: await sessionCookieFor(customer.id), xhr: true });
    expect(customerResponse.status).toBe(302);
    expect(locationOf(customerResponse)).toBe("/customer-dashboard");
    expect(await toastOf(customerResponse)).toMatchObject({ message: "Access Denied" });

    const anonymous = await post(visit.id);
    expect(anonymous.status).toBe(302);
    expect(locationOf(anonymous)).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);

    expect(await imagesOf(visit.id)).toHaveLength(0);
    expect(storedFileCount()).toBe(0);
  });

  test("answers 405 to anything but POST", async () => {
    const response = await callRoute(loader, "/resources/media-upload");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});
