import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { makePng } from "../helpers/media-bytes";
import { callRoute } from "../helpers/route-calls";
import { OFFLINE_MESSAGES } from "~/features/offline/offline-messages";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { action as visitAction } from "~/routes/admin-dashboard.visits.$visitId";
import { action as offlineAction } from "~/routes/resources.offline-change";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

/**
 * Issue 36 item 3 (docs/decisions/127): a change queued on the technician's phone without signal
 * and sent later, perhaps more than once. Each send is checked as if new (the session at send
 * time, the visit in reach, the visit's state); an applied change is kept under its key, so a
 * retry changes nothing and e-mails nobody again.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let tess: TestUser;
let tom: TestUser;
let office: TestUser;
let customer: TestUser;
let uploads: string;

beforeAll(async () => {
  tess = await createUser(db(), { role: "technician", fullName: "Tess Technician" });
  tom = await createUser(db(), { role: "technician", fullName: "Tom Technician" });
  office = await createUser(db(), { role: "office", fullName: "Olive Office" });
  customer = await createUser(db(), { fullName: "Carla Customer" });
  uploads = mkdtempSync(path.join(os.tmpdir(), "offline-changes-"));
  setStorageForTests(createFolderStorage(uploads));
});
afterAll(() => {
  setStorageForTests(undefined);
  rmSync(uploads, { recursive: true, force: true });
});
beforeEach(async () => {
  await db().deleteFrom("offline_changes").execute();
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("services").execute();
});

/** A visit of today, 10 AM, assigned to Tess. */
async function tessVisit() {
  const today = startOfBusinessDay(businessToday())!;
  return db()
    .insertInto("services")
    .values({
      customer_id: customer.id,
      service_type: "Weekly Service",
      service_date: new Date(today.getTime() + 10 * 3_600_000),
      assigned_to: tess.id,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

type Send = { who: TestUser; visitId: string; intent: string; key: string; seen?: Date; form?: FormData };

async function send({ who, visitId, intent, key, seen = new Date(Date.now() - 60_000), form }: Send) {
  const query = new URLSearchParams({ service: visitId, intent, key, seen: seen.toISOString() });
  const body = form ?? new FormData();
  const request = new Request("http://localhost/x", { method: "POST", body });
  return callRoute(offlineAction, `/resources/offline-change?${query}`, {
    cookie: await sessionCookieFor(who.id),
    body: await request.arrayBuffer(),
    headers: { "Content-Type": request.headers.get("Content-Type")! },
  });
}

const visitRow = (id: string) => db().selectFrom("services").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const completionEmails = (visitId: string) =>
  db()
    .selectFrom("outbox")
    .select("id")
    .where("related_id", "=", visitId)
    .where("kind", "=", "visit_completed")
    .execute();
const keys = () => db().selectFrom("offline_changes").selectAll().execute();
const completedEvents = (visitId: string) =>
  db()
    .selectFrom("service_events")
    .select("id")
    .where("service_id", "=", visitId)
    .where("kind", "=", "status")
    .where("to_status", "=", "completed")
    .execute();

describe("the same key sent twice", () => {
  test("completes the visit once, queues one e-mail, and answers the retry as the first send", async () => {
    const visit = await tessVisit();
    const key = crypto.randomUUID();
    const first = await send({ who: tess, visitId: visit.id, intent: "complete", key });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ outcome: "applied", message: "Visit marked completed", replayed: false });
    const completedAt = (await visitRow(visit.id)).completed_at;
    expect(completedAt).toBeInstanceOf(Date);

    const again = await send({ who: tess, visitId: visit.id, intent: "complete", key });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ outcome: "applied", message: "Visit marked completed", replayed: true });

    expect((await visitRow(visit.id)).completed_at).toEqual(completedAt);
    expect(await completedEvents(visit.id)).toHaveLength(1);
    expect(await completionEmails(visit.id)).toHaveLength(1);
    expect(await keys()).toMatchObject([{ user_id: tess.id, idempotency_key: key, intent: "complete", status: 200 }]);
  });

  test("sent at the same moment twice: one completion, one e-mail, both answered as applied", async () => {
    const visit = await tessVisit();
    const key = crypto.randomUUID();
    const answers = await Promise.all(
      [1, 2].map(() => send({ who: tess, visitId: visit.id, intent: "complete", key })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await completedEvents(visit.id)).toHaveLength(1);
    expect(await completionEmails(visit.id)).toHaveLength(1);
    expect(await keys()).toHaveLength(1);
  });

  test("a photo sent twice is stored once", async () => {
    const visit = await tessVisit();
    const key = crypto.randomUUID();
    const photo = () => {
      const form = new FormData();
      form.append("after", new Blob([makePng(4, 4)], { type: "image/png" }), "after.png");
      return form;
    };
    const first = await send({ who: tess, visitId: visit.id, intent: "photo", key, form: photo() });
    expect(first.status).toBe(200);
    expect((await first.json()).outcome).toBe("applied");
    const again = await send({ who: tess, visitId: visit.id, intent: "photo", key, form: photo() });
    expect(await again.json()).toMatchObject({ outcome: "applied", replayed: true });
    const images = await db().selectFrom("service_images").select("id").where("service_id", "=", visit.id).execute();
    expect(images).toHaveLength(1);
  });
});

describe("a replay checked as if new", () => {
  test("another technician's send of the same change is refused and stores nothing", async () => {
    const visit = await tessVisit();
    const key = crypto.randomUUID();
    const response = await send({ who: tom, visitId: visit.id, intent: "complete", key });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ outcome: "refused", message: OFFLINE_MESSAGES.refused });
    expect((await visitRow(visit.id)).status).toBe("scheduled");
    expect(await completionEmails(visit.id)).toHaveLength(0);
    expect(await keys()).toHaveLength(0);

    // Tess's own send of her key still applies: Tom's attempt took nothing from it.
    const hers = await send({ who: tess, visitId: visit.id, intent: "complete", key });
    expect(hers.status).toBe(200);
    expect(await keys()).toMatchObject([{ user_id: tess.id }]);
  });

  test("a visit reassigned meanwhile is refused; a send without a session asks to sign in, keeping nothing", async () => {
    const visit = await tessVisit();
    await db().updateTable("services").set({ assigned_to: tom.id }).where("id", "=", visit.id).execute();
    const refused = await send({ who: tess, visitId: visit.id, intent: "complete", key: crypto.randomUUID() });
    expect(refused.status).toBe(403);

    const query = new URLSearchParams({
      service: visit.id,
      intent: "complete",
      key: crypto.randomUUID(),
      seen: new Date().toISOString(),
    });
    const anonymous = await callRoute(offlineAction, `/resources/offline-change?${query}`, { form: {} });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ outcome: "sign-in", message: OFFLINE_MESSAGES.signIn });
    expect((await visitRow(visit.id)).status).toBe("scheduled");
    expect(await keys()).toHaveLength(0);
  });

  test("the office changed the visit after the phone read it: a conflict, nothing applied or stored", async () => {
    const visit = await tessVisit();
    const seen = new Date(Date.now() - 60_000);
    // The office cancels the visit (its page's own form) while Tess has no signal.
    const cancel = await callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
      cookie: await sessionCookieFor(office.id),
      params: { visitId: visit.id },
      form: { intent: "cancel" },
    });
    expect(cancel.status).toBe(302);
    const response = await send({ who: tess, visitId: visit.id, intent: "complete", key: crypto.randomUUID(), seen });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ outcome: "conflict", message: OFFLINE_MESSAGES.conflict });
    expect((await visitRow(visit.id)).status).toBe("cancelled");
    expect(await completionEmails(visit.id)).toHaveLength(0);
    expect(await keys()).toHaveLength(0);
  });

  test("the technician's own earlier queued change is no conflict: notes, then a miss with its reason", async () => {
    const visit = await tessVisit();
    const seen = new Date(Date.now() - 60_000);
    const notes = new FormData();
    notes.append("notes", "Dog loose in the yard");
    const saved = await send({
      who: tess,
      visitId: visit.id,
      intent: "notes",
      key: crypto.randomUUID(),
      seen,
      form: notes,
    });
    expect(saved.status).toBe(200);
    const miss = new FormData();
    miss.append("reason", "locked_gate");
    const missed = await send({
      who: tess,
      visitId: visit.id,
      intent: "miss",
      key: crypto.randomUUID(),
      seen,
      form: miss,
    });
    expect(missed.status).toBe(200);
    expect(await missed.json()).toMatchObject({ outcome: "applied", message: "Visit marked missed" });
    expect(await visitRow(visit.id)).toMatchObject({
      status: "missed",
      missed_reason: "locked_gate",
      notes: "Dog loose in the yard",
    });
    expect(await keys()).toHaveLength(2);
  });

  test("bad input answers 400 and stores nothing: a key that is no uuid, an unknown change, a miss without a reason", async () => {
    const visit = await tessVisit();
    expect((await send({ who: tess, visitId: visit.id, intent: "complete", key: "not-a-uuid" })).status).toBe(400);
    expect((await send({ who: tess, visitId: visit.id, intent: "cancel", key: crypto.randomUUID() })).status).toBe(400);
    const miss = await send({ who: tess, visitId: visit.id, intent: "miss", key: crypto.randomUUID() });
    expect(miss.status).toBe(400);
    expect(await miss.json()).toEqual({ outcome: "invalid", message: OFFLINE_MESSAGES.invalid });
    expect((await visitRow(visit.id)).status).toBe("scheduled");
    expect(await keys()).toHaveLength(0);
  });
});
