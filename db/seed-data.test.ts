import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyPassword } from "../app/features/accounts/password.server";
import { createFolderStorage, isValidStorageKey } from "../app/utils/storage.server";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/test-database";
import { DEV_ADMIN_TOTP_SECRET } from "./dev-totp";
import { DEV_ACCOUNTS, SEED_CUSTOMERS, seedDevelopmentData } from "./seed-data";
import { readSeedPhotoPairs } from "./seed-photos";

let database: TestDatabase;
let uploads: string;
const storage = () => createFolderStorage(uploads);

async function readAll(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function countRows() {
  const tables = ["users", "yard_profiles", "services", "service_images", "bookings", "quote_requests"] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

beforeAll(async () => {
  database = await createTestDatabase();
  uploads = mkdtempSync(path.join(os.tmpdir(), "seed-uploads-"));
  expect(await seedDevelopmentData(database.db, { storage: storage() })).toBe(true);
});
afterAll(async () => {
  await database.close();
  rmSync(uploads, { recursive: true, force: true });
});

it("seeds the documented admin, technician and customer, with their passwords and the staff's two-step", async () => {
  const users = await database.db.selectFrom("users").selectAll().execute();
  expect(users.map((u) => u.email).sort()).toEqual(
    [
      DEV_ACCOUNTS.admin.email,
      DEV_ACCOUNTS.technician.email,
      DEV_ACCOUNTS.customer.email,
      ...SEED_CUSTOMERS.map((c) => c.email),
    ].sort(),
  );
  const admin = users.find((u) => u.email === DEV_ACCOUNTS.admin.email)!;
  const technician = users.find((u) => u.email === DEV_ACCOUNTS.technician.email)!;
  expect(await verifyPassword(DEV_ACCOUNTS.admin.password, admin.password_hash)).toBe(true);
  expect(await verifyPassword(DEV_ACCOUNTS.technician.password, technician.password_hash)).toBe(true);
  // The stored hashes are the accounts' own passwords (the seed hashes nothing itself); the
  // other customers share the documented customer's.
  for (const user of users.filter((u) => u.id !== admin.id && u.id !== technician.id)) {
    expect(await verifyPassword(DEV_ACCOUNTS.customer.password, user.password_hash)).toBe(true);
  }
  const roles = await database.db.selectFrom("user_roles").selectAll().orderBy("role").execute();
  expect(roles).toEqual([
    expect.objectContaining({ user_id: admin.id, role: "owner" }),
    expect.objectContaining({ user_id: technician.id, role: "technician" }),
  ]);
  const totp = await database.db.selectFrom("user_totp").selectAll().execute();
  expect(totp).toHaveLength(2);
  for (const staff of [admin, technician]) {
    expect(totp.find((row) => row.user_id === staff.id)).toMatchObject({ secret: DEV_ADMIN_TOTP_SECRET });
    expect(totp.find((row) => row.user_id === staff.id)?.enabled_at).toBeInstanceOf(Date);
  }
  // The technician works today's round and tomorrow's visit: the role has something to show.
  const assigned = await database.db
    .selectFrom("services")
    .select("service_date")
    .where("assigned_to", "=", technician.id)
    .execute();
  expect(assigned.length).toBe(3);
  expect(users.every((u) => u.email_verified_at instanceof Date)).toBe(true);
});

it("gives every customer a yard, and keeps gate codes out of every visit's words", async () => {
  const yards = await database.db.selectFrom("yard_profiles").selectAll().execute();
  expect(yards).toHaveLength(1 + SEED_CUSTOMERS.length);
  const gateCodes = yards.flatMap((y) => (y.gate_code ? [y.gate_code] : []));
  expect(gateCodes.length).toBeGreaterThanOrEqual(2);
  const visits = await database.db.selectFrom("services").selectAll().execute();
  for (const visit of visits) {
    const words = [visit.notes, visit.missed_note, visit.health_note].join(" ");
    expect(words).not.toMatch(/gate code/i);
    for (const code of gateCodes) expect(words).not.toContain(code);
  }
});

it("seeds completed, missed (with its return visit), skipped and today's visits, and health notes", async () => {
  const visits = await database.db.selectFrom("services").selectAll().execute();
  const statuses = new Set(visits.map((v) => v.status));
  expect([...statuses].sort()).toEqual(["completed", "missed", "scheduled", "skipped"]);
  const missed = visits.find((v) => v.status === "missed")!;
  expect(missed.missed_reason).not.toBeNull();
  expect(visits.find((v) => v.return_visit_of === missed.id)?.status).toBe("completed");
  expect(visits.some((v) => v.health_flags.length > 0 && v.health_note)).toBe(true);
  expect(visits.filter((v) => v.status === "completed").every((v) => v.completed_at instanceof Date)).toBe(true);
  const pacificDay = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Los_Angeles" }).format(d);
  const today = visits.filter((v) => pacificDay(v.service_date) === pacificDay(new Date()));
  expect(today.length).toBeGreaterThanOrEqual(2);
  // The documented customer's visit history holds these five, and the dashboard lists the three
  // completed ones (decision 047; tests/e2e/portal.spec.ts counts them).
  const customer = await database.db
    .selectFrom("users")
    .select("id")
    .where("email", "=", DEV_ACCOUNTS.customer.email)
    .executeTakeFirstOrThrow();
  const customersVisits = visits.filter((v) => v.customer_id === customer.id);
  expect(customersVisits).toHaveLength(5);
  expect(customersVisits.filter((v) => v.status === "completed")).toHaveLength(3);
});

it("stores before and after photos from the bundled dataset, readable from storage", async () => {
  const pairs = await readSeedPhotoPairs();
  expect(pairs.length).toBeGreaterThanOrEqual(3);
  const images = await database.db
    .selectFrom("service_images")
    .innerJoin("services", "services.id", "service_images.service_id")
    .select(["image_url", "image_type", "content_type", "size_bytes", "service_id", "customer_id", "status"])
    .execute();
  expect(images.length).toBeGreaterThanOrEqual(6);
  for (const image of images) {
    expect(isValidStorageKey(image.image_url)).toBe(true);
    expect(image.image_url).toMatch(
      new RegExp(`^${image.customer_id}/${image.service_id}/${image.image_type}_\\d+\\.png$`),
    );
    expect(image.status).toBe("completed");
    const stored = await storage().get(image.image_url);
    expect(stored).not.toBeNull();
    const bytes = await readAll(stored!.body);
    expect(bytes.length).toBe(image.size_bytes);
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(image.content_type).toBe("image/png");
  }
  // Every photographed visit has both sides, for the comparison slider.
  for (const visitId of new Set(images.map((i) => i.service_id))) {
    const sides = images.filter((i) => i.service_id === visitId).map((i) => i.image_type);
    expect(sides.sort()).toEqual(["after", "before"]);
  }
});

it("seeds matched and unmatched bookings and quote requests", async () => {
  const bookings = await database.db.selectFrom("bookings").selectAll().execute();
  expect(bookings.filter((b) => b.customer_id === null)).toHaveLength(1);
  expect(bookings.filter((b) => b.customer_id !== null).length).toBeGreaterThanOrEqual(2);
  const quotes = await database.db.selectFrom("quote_requests").selectAll().execute();
  expect(quotes.length).toBeGreaterThanOrEqual(2);
});

it("adds nothing on a second run", async () => {
  const before = await countRows();
  expect(await seedDevelopmentData(database.db, { storage: storage() })).toBe(false);
  expect(await countRows()).toEqual(before);
});
