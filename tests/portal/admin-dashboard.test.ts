import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { generatedBytes, makePng, MiB, MP4_HEADER, multipartBody } from "../helpers/media-bytes";
import { createVisitRow } from "../helpers/portal-data";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { action, loader } from "~/routes/admin-dashboard._index";
import { createFolderStorage, setStorageForTests, type StorageBackend } from "~/utils/storage.server";
import { MAX_UPLOAD_BYTES } from "~/utils/upload-limit";

const database = useAppDatabase();
const db = () => database.current.db;

let uploads: string;
let admin: TestUser;
let customer: TestUser;
let adminCookie: string;

function storedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(uploads, full).split(path.sep).join("/"));
    }
  };
  walk(uploads);
  return out.sort();
}

beforeAll(async () => {
  admin = await createUser(db(), { admin: true });
  customer = await createUser(db(), { fullName: "Carla Customer" });
  adminCookie = await sessionCookieFor(admin.id);
});

beforeEach(() => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "admin-uploads-"));
  setStorageForTests(createFolderStorage(uploads));
  return () => {
    setStorageForTests(undefined);
    rmSync(uploads, { recursive: true, force: true });
  };
});

const createForm = (values: Partial<Record<"customerId" | "serviceType" | "serviceDate" | "notes", string>>) =>
  callRoute(action, "/admin-dashboard?index&tab=create", {
    cookie: adminCookie,
    form: { customerId: "", serviceType: "", serviceDate: "", notes: "", ...values },
  });

describe("Create Service", () => {
  test.each([
    ["no customer", { serviceType: "Desert Dash", serviceDate: "2025-05-01T09:00" }, "customerId"],
    ["no type", { customerIdOf: true, serviceDate: "2025-05-01T09:00" }, "serviceType"],
    ["no date", { customerIdOf: true, serviceType: "Desert Dash" }, "serviceDate"],
  ] as const)("%s: Missing Information, and what was typed comes back", async (_, input, field) => {
    const { customerIdOf, ...values } = { customerIdOf: false, ...input };
    const response = await createForm({
      ...values,
      ...(customerIdOf ? { customerId: customer.id } : {}),
      notes: "keep me",
    });
    expect(response.status).toBe(400);
    const data = await response.json();
    expect(data.toast).toEqual({
      type: "error",
      message: "Missing Information",
      description: "Please fill in all required fields",
    });
    expect(Object.keys(data.lastResult.error)).toEqual([field]);
    expect(data.lastResult.initialValue.notes).toBe("keep me");
  });

  test.each([
    ["an unknown visit type", { serviceType: "Moon Landing" }],
    ["an impossible date", { serviceDate: "2025-02-30T10:00" }],
    ["an admin as the customer", { customerId: "admin" }],
    ["an unknown customer", { customerId: "00000000-0000-4000-8000-000000000000" }],
    ["notes over 2000 characters", { notes: "x".repeat(2001) }],
  ])("%s: Error / Failed to create service, nothing stored", async (_, override) => {
    const before = await db().selectFrom("services").select("id").execute();
    const values = {
      customerId: customer.id,
      serviceType: "Desert Dash",
      serviceDate: "2025-05-01T09:00",
      ...override,
    };
    if (values.customerId === "admin") values.customerId = admin.id;
    const response = await createForm(values);
    expect(response.status).toBe(400);
    expect((await response.json()).toast).toEqual({
      type: "error",
      message: "Error",
      description: "Failed to create service",
    });
    expect(await db().selectFrom("services").select("id").execute()).toHaveLength(before.length);
  });

  test("success: a scheduled visit, made current in the URL, customer kept", async () => {
    const response = await createForm({
      customerId: customer.id,
      serviceType: "Sanitize & Deodorize",
      serviceDate: "2025-07-04T09:30",
      notes: "  Side gate  ",
    });
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Success",
      description: "Service created successfully",
    });
    const location = new URL(locationOf(response)!, "http://localhost");
    expect(location.pathname).toBe("/admin-dashboard");
    expect(location.searchParams.get("customer")).toBe(customer.id);
    const visitId = location.searchParams.get("service")!;
    const row = await db().selectFrom("services").selectAll().where("id", "=", visitId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      customer_id: customer.id,
      service_type: "Sanitize & Deodorize",
      status: "scheduled",
      notes: "Side gate",
      created_by: admin.id,
    });
    // 9:30 in Las Vegas in July is 16:30 UTC.
    expect(new Date(row.service_date).toISOString()).toBe("2025-07-04T16:30:00.000Z");

    // Reloading that URL shows the visit as current, with the customer still selected.
    const page = await callRoute(loader, location.pathname + location.search, { cookie: adminCookie });
    const data = await page.json();
    expect(data.currentVisit).toMatchObject({ id: visitId, serviceType: "Sanitize & Deodorize" });
    expect(data.currentVisit.dateLabel).toBe("Jul 4, 2025, 9:30 AM");
    expect(data.selectedCustomerId).toBe(customer.id);
  });

  test("a database failure answers Error / Failed to create service, keeping the input", async () => {
    // A trigger makes the insert fail, as a lost connection or a full disk would.
    await sql`create or replace function fail_insert() returns trigger as $$ begin raise exception 'boom'; end $$ language plpgsql`.execute(
      db(),
    );
    await sql`create trigger services_fail before insert on services for each row execute function fail_insert()`.execute(
      db(),
    );
    const input = {
      customerId: customer.id,
      serviceType: "Desert Dash",
      serviceDate: "2025-05-01T09:00",
      notes: "gate",
    };
    try {
      const response = await createForm(input);
      expect(response.status).toBe(400);
      const data = await response.json();
      expect(data.toast).toEqual({ type: "error", message: "Error", description: "Failed to create service" });
      expect(data.lastResult.initialValue).toEqual(input);
    } finally {
      await sql`drop trigger services_fail on services`.execute(db());
    }
    expect((await createForm(input)).status).toBe(302);
  });
});

async function upload(options: {
  visitId?: string;
  field?: string;
  filename?: string;
  bytes: AsyncIterable<Uint8Array> | Uint8Array;
  xhr?: boolean;
}) {
  const bytes =
    options.bytes instanceof Uint8Array
      ? (async function* (b: Uint8Array) {
          yield b;
        })(options.bytes)
      : options.bytes;
  const { body, contentType } = multipartBody({
    field: options.field ?? "before",
    filename: options.filename ?? "yard.png",
    contentType: "application/octet-stream",
    bytes,
  });
  const query = options.visitId ? `&service=${options.visitId}&customer=${customer.id}` : "";
  return callRoute(action, `/admin-dashboard?index&tab=upload${query}`, {
    cookie: adminCookie,
    body,
    headers: { "Content-Type": contentType, ...(options.xhr ? { "X-Requested-With": "XMLHttpRequest" } : {}) },
  });
}

const imagesOf = (visitId: string) =>
  db().selectFrom("service_images").selectAll().where("service_id", "=", visitId).execute();

describe("Upload Images", () => {
  test("without a current visit: No Service Selected, nothing stored", async () => {
    for (const visitId of [undefined, "00000000-0000-4000-8000-000000000000", "garbage"]) {
      const response = await upload({ visitId, bytes: makePng(4, 4) });
      expect(response.status).toBe(302);
      expect(await toastOf(response)).toMatchObject({
        message: "No Service Selected",
        description: "Please create a service first",
      });
    }
    expect(storedFiles()).toEqual([]);
  });

  test("a before photo: stored under the customer's key, recorded, toast names it", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const png = makePng(32, 32);
    const response = await upload({ visitId: visit.id, field: "before", bytes: png });
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      message: "Success",
      description: "before image uploaded successfully",
    });
    expect(locationOf(response)).toBe(`/admin-dashboard?tab=upload&service=${visit.id}&customer=${customer.id}`);
    const [row] = await imagesOf(visit.id);
    expect(row).toMatchObject({ image_type: "before", content_type: "image/png", uploaded_by: admin.id });
    expect(Number(row.size_bytes)).toBe(png.length);
    expect(row.image_url).toMatch(new RegExp(`^${customer.id}/${visit.id}/before_\\d{19}\\.png$`));
    expect(storedFiles()).toEqual([row.image_url]);
  });

  test("an after video: 'after video uploaded successfully'", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await upload({
      visitId: visit.id,
      field: "after",
      filename: "clip.mov",
      bytes: generatedBytes(MP4_HEADER, 2 * MiB),
    });
    expect(await toastOf(response)).toMatchObject({ description: "after video uploaded successfully" });
    const [row] = await imagesOf(visit.id);
    expect(row.image_url).toMatch(/\/after_\d+\.mp4$/);
    expect(row.content_type).toBe("video/mp4");
  });

  test("a text file named .jpg is refused and nothing is stored", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await upload({
      visitId: visit.id,
      filename: "yard.jpg",
      bytes: Buffer.from("just some text\n".repeat(100)),
    });
    expect(await toastOf(response)).toMatchObject({ type: "error", message: "Upload Failed" });
    expect(await imagesOf(visit.id)).toEqual([]);
    expect(storedFiles()).toEqual([]);
  });

  test("50 MB + 1 byte: File Too Large, nothing stored, no row", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await upload({
      visitId: visit.id,
      field: "after",
      bytes: generatedBytes(MP4_HEADER, MAX_UPLOAD_BYTES + 1, MiB),
    });
    expect(await toastOf(response)).toMatchObject({
      type: "error",
      message: "File Too Large",
      description: "Maximum file size is 50MB",
    });
    expect(await imagesOf(visit.id)).toEqual([]);
    expect(storedFiles()).toEqual([]);
  });

  test("a form without a file: Upload Failed", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await upload({ visitId: visit.id, filename: "", bytes: new Uint8Array(0) });
    expect(await toastOf(response)).toMatchObject({ message: "Upload Failed", description: "Failed to upload file" });
  });

  test("a broken multipart body: Upload Failed, never a 500", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await callRoute(action, `/admin-dashboard?index&service=${visit.id}`, {
      cookie: adminCookie,
      body: "--x\r\nnonsense",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
    });
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({ message: "Upload Failed" });
  });

  test("the page's upload script gets JSON with the target and the toast cookie", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const response = await upload({ visitId: visit.id, bytes: makePng(4, 4), xhr: true });
    expect(response.status).toBe(200);
    expect(await response.clone().json()).toEqual({
      redirectTo: `/admin-dashboard?tab=upload&service=${visit.id}&customer=${customer.id}`,
    });
    expect(await toastOf(response)).toMatchObject({ description: "before image uploaded successfully" });
  });

  test("consistency: when the row cannot be written, the stored object is deleted again", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const folder = createFolderStorage(uploads);
    // The visit disappears while its file is being stored (another admin deleted it), so the
    // insert fails on the foreign key.
    const racing: StorageBackend = {
      ...folder,
      async put(key, body, options) {
        await folder.put(key, body, options);
        await db().deleteFrom("services").where("id", "=", visit.id).execute();
      },
    };
    setStorageForTests(racing);
    const response = await upload({ visitId: visit.id, bytes: makePng(4, 4) });
    expect(await toastOf(response)).toMatchObject({ message: "Upload Failed", description: "Failed to upload file" });
    expect(storedFiles()).toEqual([]);
    expect(await imagesOf(visit.id)).toEqual([]);
  });

  test("consistency: when storage fails, no row is written", async () => {
    const visit = await createVisitRow(db(), customer.id);
    const folder = createFolderStorage(uploads);
    setStorageForTests({
      ...folder,
      async put() {
        throw new Error("bucket unreachable");
      },
    });
    const response = await upload({ visitId: visit.id, bytes: makePng(4, 4) });
    expect(await toastOf(response)).toMatchObject({ message: "Upload Failed", description: "Failed to upload file" });
    expect(await imagesOf(visit.id)).toEqual([]);
  });
});
