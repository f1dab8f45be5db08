import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { sql } from "kysely";
import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { makePng } from "../helpers/media-bytes";
import { callRoute } from "../helpers/route-calls";
import { useTestSmtp } from "../helpers/smtp-server";
import { deliverDueEmails, enqueueEmail } from "~/features/outbox/outbox.server";
import { action as visitAction } from "~/routes/admin-dashboard.visits.$visitId";
import { resetEnvCache } from "~/utils/env.server";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Yard Team <team@example.com>");
let admin: TestUser;
let customer: TestUser;
let adminCookie: string;
let uploads: string;
const PHOTO = makePng(3, 2);

beforeAll(async () => {
  admin = await createUser(db(), { admin: true });
  customer = await createUser(db(), { fullName: "Carla Customer" });
  adminCookie = await sessionCookieFor(admin.id);
});

beforeEach(async () => {
  uploads = mkdtempSync(path.join(os.tmpdir(), "visit-mail-"));
  setStorageForTests(createFolderStorage(uploads));
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("services").execute();
  await db().deleteFrom("yard_profiles").execute();
});
afterEach(() => {
  setStorageForTests(undefined);
  rmSync(uploads, { recursive: true, force: true });
  resetEnvCache();
});

async function scheduledVisit() {
  return db()
    .insertInto("services")
    .values({
      customer_id: customer.id,
      service_type: "Weekly Service",
      service_date: new Date("2030-04-02T17:00:00Z"),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function addMedia(visitId: string, type: "before" | "after", contentType: string, bytes: Buffer) {
  const key = `${customer.id}/${visitId}/${type}_${Date.now() + Math.floor(Math.random() * 1e6)}.${contentType.split("/")[1]}`;
  await createFolderStorage(uploads).put(key, Readable.from([bytes]), { contentType });
  await db()
    .insertInto("service_images")
    .values({
      service_id: visitId,
      image_url: key,
      image_type: type,
      content_type: contentType,
      size_bytes: bytes.length,
    })
    .execute();
}

const post = (visitId: string, form: Record<string, string>) =>
  callRoute(visitAction, `/admin-dashboard/visits/${visitId}`, { cookie: adminCookie, params: { visitId }, form });

describe("completion and missed e-mails through the outbox", () => {
  test("a completed visit: nothing sent in the request, then exactly one e-mail with the photo, notes and link", async () => {
    const visit = await scheduledVisit();
    await addMedia(visit.id, "before", "image/png", makePng(2, 2));
    await addMedia(visit.id, "after", "image/png", PHOTO);
    await db()
      .updateTable("services")
      .set({ health_flags: ["blood_in_stool"], health_note: "Seen near the fence" })
      .where("id", "=", visit.id)
      .execute();
    expect((await post(visit.id, { intent: "complete" })).status).toBe(302);
    // Queued with the change, not sent inside the request.
    expect(smtp.current.messages).toHaveLength(0);
    const queued = await db().selectFrom("outbox").selectAll().execute();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ status: "pending", kind: "visit_completed", related_id: visit.id });

    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.current.messages).toHaveLength(1);
    const mail = smtp.current.messages[0];
    expect(mail.subject).toBe("Your Weekly Service visit is complete");
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0].address : null).toBe(customer.email);
    expect(mail.text).toContain("Blood in stool");
    expect(mail.text).toContain("Seen near the fence");
    expect(mail.text).toContain("Consider contacting your veterinarian.");
    expect(mail.text).toContain(`/customer-dashboard/visits/${visit.id}`);
    expect(mail.attachments).toHaveLength(1);
    // A photo goes as a JPEG copy (tests/attack/outbox.test.ts: a 20 MB one), never the original.
    expect(mail.attachments[0].contentType).toBe("image/jpeg");
    expect(mail.attachments[0].filename).toBe("after.jpg");
    expect((await sharp(mail.attachments[0].content).metadata()).format).toBe("jpeg");
    // Inline: the HTML shows the attachment (mailparser turns the cid: reference into a data URI).
    expect(mail.attachments[0].cid).toBe("after-photo");
    expect(mail.html).toContain(`src="data:image/jpeg;base64,${mail.attachments[0].content.toString("base64")}"`);
    const sent = await db().selectFrom("outbox").selectAll().executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: "sent", attempts: 1 });
  });

  test("a video-only visit gets the link and no attachment", async () => {
    const visit = await scheduledVisit();
    await addMedia(visit.id, "after", "video/mp4", Buffer.from("not really a video"));
    await post(visit.id, { intent: "complete" });
    await deliverDueEmails();
    expect(smtp.current.messages).toHaveLength(1);
    expect(smtp.current.messages[0].attachments).toHaveLength(0);
    expect(smtp.current.messages[0].text).toContain(`/customer-dashboard/visits/${visit.id}`);
  });

  test("a missed visit: 'We couldn't complete your visit on {date}' with the reason", async () => {
    const visit = await scheduledVisit();
    await post(visit.id, { intent: "miss", reason: "dog_in_yard" });
    await deliverDueEmails();
    expect(smtp.current.messages).toHaveLength(1);
    expect(smtp.current.messages[0].subject).toBe("We couldn't complete your visit on Apr 2, 2030");
    expect(smtp.current.messages[0].text).toContain("Reason: Dog in yard");
  });

  test("SMTP down: the row waits with its error, and is sent once the server is back", async () => {
    const visit = await scheduledVisit();
    await post(visit.id, { intent: "complete" });
    await smtp.current.stop();
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 1 });
    const waiting = await db().selectFrom("outbox").selectAll().executeTakeFirstOrThrow();
    expect(waiting.status).toBe("pending");
    expect(waiting.attempts).toBe(1);
    expect(waiting.last_error).toBeTruthy();
    expect(waiting.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    await smtp.current.start();
    // Backoff not over yet: nothing is tried.
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
    await db()
      .updateTable("outbox")
      .set({ next_attempt_at: sql<Date>`now() - interval '1 second'` })
      .execute();
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.current.messages).toHaveLength(1);
    expect(await db().selectFrom("outbox").select(["status", "attempts"]).executeTakeFirstOrThrow()).toEqual({
      status: "sent",
      attempts: 2,
    });
  });

  test("the customer's preference off: no e-mail, and the history says why", async () => {
    await db().insertInto("yard_profiles").values({ user_id: customer.id, notify_visit_emails: false }).execute();
    const visit = await scheduledVisit();
    await post(visit.id, { intent: "complete" });
    await deliverDueEmails();
    expect(await db().selectFrom("outbox").selectAll().execute()).toHaveLength(0);
    expect(smtp.current.messages).toHaveLength(0);
    const events = await db().selectFrom("service_events").select("kind").where("service_id", "=", visit.id).execute();
    expect(events.map((e) => e.kind).sort()).toEqual(["email_skipped", "status"]);
  });

  test("without SMTP_URL the row is kept as skipped and never sent", async () => {
    delete process.env.SMTP_URL;
    resetEnvCache();
    const visit = await scheduledVisit();
    await post(visit.id, { intent: "miss", reason: "weather" });
    const row = await db().selectFrom("outbox").selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe("skipped");
    process.env.SMTP_URL = smtp.current.url;
    resetEnvCache();
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.current.messages).toHaveLength(0);
  });

  test("two workers never send one row twice", async () => {
    for (let i = 0; i < 30; i++) {
      await enqueueEmail(db(), { kind: "other", to: `n${i}@example.com`, subject: `Message ${i}`, text: "Hello" });
    }
    // A dedupe key stores a message once.
    await enqueueEmail(db(), { kind: "other", to: "d@example.com", subject: "Once", text: "x", dedupeKey: "k1" });
    expect(
      await enqueueEmail(db(), { kind: "other", to: "d@example.com", subject: "Once", text: "x", dedupeKey: "k1" }),
    ).toBeUndefined();
    const worker = async () => {
      let total = 0;
      for (;;) {
        const { sent, failed } = await deliverDueEmails({ limit: 4 });
        total += sent + failed;
        if (sent + failed === 0) return total;
      }
    };
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(a + b).toBe(31);
    expect(smtp.current.messages).toHaveLength(31);
    expect(new Set(smtp.current.envelopes.map((rcpt) => rcpt.join(","))).size).toBe(31);
    const rows = await db().selectFrom("outbox").select(["status", "attempts"]).execute();
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });
});

describe("deleting a visit's media", () => {
  test("removes the row and the stored object, writes the history; a second delete is 404", async () => {
    const visit = await scheduledVisit();
    await addMedia(visit.id, "before", "image/png", PHOTO);
    const image = await db().selectFrom("service_images").selectAll().executeTakeFirstOrThrow();
    expect(existsSync(path.join(uploads, image.image_url))).toBe(true);
    const response = await post(visit.id, { intent: "delete-media", mediaId: image.id });
    expect(response.status).toBe(302);
    expect(await db().selectFrom("service_images").selectAll().execute()).toHaveLength(0);
    expect(existsSync(path.join(uploads, image.image_url))).toBe(false);
    const events = await db().selectFrom("service_events").select("kind").where("service_id", "=", visit.id).execute();
    expect(events.map((e) => e.kind)).toEqual(["media_deleted"]);
    const again = await post(visit.id, { intent: "delete-media", mediaId: image.id });
    expect(again.status).toBe(404);
  });

  test("another visit's media cannot be deleted through this visit", async () => {
    const visit = await scheduledVisit();
    const other = await scheduledVisit();
    await addMedia(other.id, "after", "image/png", PHOTO);
    const image = await db().selectFrom("service_images").selectAll().executeTakeFirstOrThrow();
    expect((await post(visit.id, { intent: "delete-media", mediaId: image.id })).status).toBe(404);
    expect(await db().selectFrom("service_images").selectAll().execute()).toHaveLength(1);
    expect(existsSync(path.join(uploads, image.image_url))).toBe(true);
  });
});
