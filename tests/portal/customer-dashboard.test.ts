import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { generatedBytes, makePng, MP4_HEADER } from "../helpers/media-bytes";
import { createBookingRow, createVisitRow } from "../helpers/portal-data";
import { callRoute } from "../helpers/route-calls";
import { storeVisitMedia } from "~/features/media/visit-media.server";
import { loader } from "~/routes/customer-dashboard";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

// SPEC 6 and 9: own rows only; 5 completed visits newest first, 5 bookings from today on soonest
// first (decision 047), 4 media items.
const database = useAppDatabase();
let uploads: string;

beforeAll(() => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "customer-dashboard-"));
  setStorageForTests(createFolderStorage(uploads));
});

afterAll(() => {
  setStorageForTests(undefined);
  rmSync(uploads, { recursive: true, force: true });
});

type Data = {
  recentVisits: { id: string; status: string }[];
  bookings: { id: string }[];
  visitMedia: { visitId: string; items: { id: string; imageType: string; kind: string; url: string }[] }[];
  calendarUrl: string | null;
};

test("the caps, the order, and before/after shown as a pair", async () => {
  const db = database.current.db;
  const customer = await createUser(db, { fullName: "Dana Dog" });
  const admin = await createUser(db, { admin: true });

  // 6 completed visits, created out of date order: the newest 5 by service_date are shown; the
  // two scheduled ahead are not.
  const offsets = [-30, -1, -60, -7, -3, -90];
  const visits: Awaited<ReturnType<typeof createVisitRow>>[] = [];
  for (const daysFromNow of offsets) visits.push(await createVisitRow(db, customer.id, { daysFromNow }));
  const byDateDesc = [...visits].sort((a, b) => +new Date(b.service_date) - +new Date(a.service_date));
  const scheduled = [
    await createVisitRow(db, customer.id, { daysFromNow: 2, status: "scheduled" }),
    await createVisitRow(db, customer.id, { daysFromNow: 9, status: "scheduled" }),
  ];

  // 7 bookings: the 5 soonest from today on are shown, the past ones are not.
  const bookings: Awaited<ReturnType<typeof createBookingRow>>[] = [];
  for (const daysFromNow of [5, -2, 30, 1, 12, -9, 3, 20])
    bookings.push(await createBookingRow(db, customer.id, { daysFromNow }));
  const upcomingSoonest = bookings
    .filter((b) => +new Date(b.booking_date) > Date.now())
    .sort((a, b) => +new Date(a.booking_date) - +new Date(b.booking_date));

  // Media, oldest upload first: visit X before+after, visit Y before+after, visit Z before.
  const [x, y, z] = [byDateDesc[0], byDateDesc[1], byDateDesc[2]];
  const stored: { id: string; visit: string }[] = [];
  const add = async (visit: (typeof visits)[number], imageType: "before" | "after", video = false) => {
    const result = await storeVisitMedia({
      visit,
      imageType,
      source: (video ? generatedBytes(MP4_HEADER, 50_000) : generatedBytes(makePng(3, 3), 3_000))[
        Symbol.asyncIterator
      ](),
      uploadedBy: admin.id,
    });
    if (!result.ok) throw new Error(result.reason);
    // Distinct creation times, so "newest first" is unambiguous (created_at is not updatable
    // through the app's types, on purpose).
    const createdAt = new Date(Date.now() - (100 - stored.length) * 60_000);
    await sql`update service_images set created_at = ${createdAt} where id = ${result.image.id}`.execute(db);
    stored.push({ id: result.image.id, visit: visit.id });
  };
  await add(x, "before");
  await add(x, "after", true);
  await add(y, "before");
  await add(y, "after", true);
  await add(z, "before");
  // Someone else's media never shows up, even at the top of the timeline.
  const other = await createUser(db);
  const otherVisit = await createVisitRow(db, other.id, { daysFromNow: 0 });
  await createBookingRow(db, other.id, { daysFromNow: 100 });
  await add(otherVisit, "before");

  const response = await callRoute(loader, "/customer-dashboard", { cookie: await sessionCookieFor(customer.id) });
  const data: Data = await response.json();

  expect(data.recentVisits.map((s) => s.id)).toEqual(byDateDesc.slice(0, 5).map((s) => s.id));
  for (const visit of scheduled) expect(data.recentVisits.map((s) => s.id)).not.toContain(visit.id);
  expect(data.bookings.map((b) => b.id)).toEqual(upcomingSoonest.slice(0, 5).map((b) => b.id));

  // The newest 4 of this customer's items: Z before, Y after, Y before, X after; grouped by
  // visit in order of their newest item, before first within a visit.
  const newest4 = stored.slice(1, 5).reverse();
  expect(data.visitMedia.map((v) => v.visitId)).toEqual([z.id, y.id, x.id]);
  expect(data.visitMedia.flatMap((v) => v.items.map((i) => i.id)).sort()).toEqual(newest4.map((m) => m.id).sort());
  const visitY = data.visitMedia[1];
  expect(visitY.items.map((i) => [i.imageType, i.kind])).toEqual([
    ["before", "image"],
    ["after", "video"],
  ]);
  for (const item of data.visitMedia.flatMap((v) => v.items)) expect(item.url).toBe(`/resources/media/${item.id}`);

  // The calendar link from the site settings, prefilled for this customer.
  const calendar = new URL(data.calendarUrl!);
  expect(calendar.searchParams.get("name")).toBe("Dana Dog");
  expect(calendar.searchParams.get("email")).toBe(customer.email);
});

test("an empty dashboard", async () => {
  const db = database.current.db;
  const customer = await createUser(db);
  const response = await callRoute(loader, "/customer-dashboard", { cookie: await sessionCookieFor(customer.id) });
  const data: Data = await response.json();
  expect(data).toMatchObject({ recentVisits: [], bookings: [], visitMedia: [] });
});
