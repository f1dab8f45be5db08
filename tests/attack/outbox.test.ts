import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { MiB } from "../helpers/media-bytes";
import { callRoute } from "../helpers/route-calls";
import { useTestSmtp } from "../helpers/smtp-server";
import { EMAIL_PHOTO_MAX_BYTES, EMAIL_PHOTO_MAX_SIDE } from "~/features/outbox/email-photo.server";
import {
  deliverClaimedEmail,
  deliverDueEmails,
  enqueueEmail,
  enqueueEmails,
  MAX_ATTEMPTS,
  nextAttemptAt,
  pruneOutbox,
} from "~/features/outbox/outbox.server";
import { claimNextOutboxMessage, markOutboxAttemptFailed } from "~/models/outbox.server";
import { action as visitAction } from "~/routes/admin-dashboard.visits.$visitId";
import { resetEnvCache } from "~/utils/env.server";
import { createFolderStorage, setStorageForTests } from "~/utils/storage.server";

/**
 * Issue 24, items 8 and 9, written as the attacks: two outbox workers and a lease that ran out,
 * a late failure from a worker that lost its claim, a 20 MB after photo. A real database (the
 * PostgreSQL server when TEST_DATABASE_URL is set, else PGlite) and a real SMTP server on loopback
 * that parses every message it receives.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Yard Team <team@example.com>");

const outboxRows = () =>
  db()
    .selectFrom("outbox")
    .select(["id", "status", "attempts", "last_error", "claim_token"])
    .orderBy("created_at")
    .execute();

async function queue(n = 1) {
  for (let i = 0; i < n; i++) {
    await enqueueEmail(db(), { kind: "other", to: `n${i}@example.com`, subject: `Message ${i}`, text: "Hello" });
  }
}

/** A mail server that accepts connections and never greets: a send through it hangs until cut. */
async function startSilentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => sockets.size,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A real SMTP server that takes each message and answers only once released. */
async function startHeldSmtpServer() {
  let received = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => {
        received += 1;
        void released.then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as net.AddressInfo).port}`,
    received: () => received,
    release: () => release(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const useSmtpUrl = (url: string) => {
  process.env.SMTP_URL = url;
  resetEnvCache();
};

beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
});

describe("outbox claims (item 8)", () => {
  test("two workers and an expired lease: the row is sent once, and the late worker sends nothing", async () => {
    await queue();
    // Worker A claims the row, then freezes (a paused machine) until its lease has run out.
    const claimA = await claimNextOutboxMessage({ leaseMs: 90_000 });
    expect(claimA).toBeDefined();
    await db()
      .updateTable("outbox")
      .set({ locked_until: sql<Date>`now() - interval '1 second'` })
      .execute();

    // Worker B takes it over and sends it.
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.current.messages).toHaveLength(1);

    // A wakes up: its claim is gone, so it sends nothing and writes nothing.
    expect(await deliverClaimedEmail(claimA!)).toBe("lost");
    expect(smtp.current.messages).toHaveLength(1);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "sent", attempts: 2, last_error: null, claim_token: null });
    // Nothing left for anyone.
    expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.current.messages).toHaveLength(1);
  });

  test("a late failure from a worker whose claim was taken does not re-queue the row", async () => {
    await queue();
    const silent = await startSilentServer();
    const held = await startHeldSmtpServer();
    try {
      // Worker A starts sending through a mail server that hangs.
      useSmtpUrl(silent.url);
      const workerA = deliverDueEmails({ leaseMs: 60_000 });
      await until(() => silent.connections() > 0);
      expect((await outboxRows())[0]).toMatchObject({ status: "sending", attempts: 1 });

      // A's lease runs out while it hangs (as if frozen); worker B takes the row, and its mail
      // server has the message but has not answered yet.
      await db()
        .updateTable("outbox")
        .set({ locked_until: sql<Date>`now() - interval '1 second'` })
        .execute();
      useSmtpUrl(held.url);
      const workerB = deliverDueEmails();
      await until(() => held.received() > 0);

      // A's send fails now, while B holds the row. Before item 8 this wrote "pending" over B's
      // claim: B could not record its send, and the message went out again at the next pass.
      await silent.close();
      expect(await workerA).toEqual({ sent: 0, failed: 0 });
      expect((await outboxRows())[0]).toMatchObject({ status: "sending", attempts: 2, last_error: null });

      held.release();
      expect(await workerB).toEqual({ sent: 1, failed: 0 });
      expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 2, last_error: null });
      useSmtpUrl(smtp.current.url);
      expect(await deliverDueEmails({ ignoreBackoff: true })).toEqual({ sent: 0, failed: 0 });
      expect(smtp.current.messages).toHaveLength(0);
      expect(held.received()).toBe(1);
    } finally {
      held.release();
      await silent.close();
      await held.close();
    }
  });

  test("an outcome is written only with the claim's own token", async () => {
    await queue();
    const claim = await claimNextOutboxMessage({ leaseMs: 90_000 });
    expect(await markOutboxAttemptFailed(claim!.id, crypto.randomUUID(), "forged", null)).toBe(false);
    expect((await outboxRows())[0]).toMatchObject({
      status: "sending",
      last_error: null,
      claim_token: claim!.claim_token,
    });
    expect(await deliverClaimedEmail(claim!)).toBe("sent");
    expect((await outboxRows())[0]).toMatchObject({ status: "sent" });
  });

  test("slow sends hold only their own rows (one claim per lane): the rest goes through another worker meanwhile", async () => {
    await queue(5);
    const silent = await startSilentServer();
    try {
      useSmtpUrl(silent.url);
      const workerA = deliverDueEmails({ leaseMs: 60_000, concurrency: 2 });
      await until(() => silent.connections() >= 2);
      // Two lanes, two rows, each under its own claim: not a batch of 20 under one lease.
      const sending = (await outboxRows()).filter((row) => row.status === "sending");
      expect(sending).toHaveLength(2);
      expect(new Set(sending.map((row) => row.claim_token)).size).toBe(2);

      useSmtpUrl(smtp.current.url);
      expect(await deliverDueEmails()).toEqual({ sent: 3, failed: 0 });
      await silent.close();
      // A's failures are its own rows', which go back to wait for their next attempt.
      expect(await workerA).toEqual({ sent: 0, failed: 2 });
      const rows = await outboxRows();
      expect(rows.filter((row) => row.status === "sent")).toHaveLength(3);
      expect(rows.filter((row) => row.status === "pending")).toHaveLength(2);
      expect(smtp.current.messages).toHaveLength(3);
    } finally {
      await silent.close();
    }
  });

  test("e-mails share a pool of SMTP connections: 30 go over at most OUTBOX_CONCURRENCY, each once", async () => {
    let connections = 0;
    const subjects: string[] = [];
    const counting = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 100,
      onConnect(_session, callback) {
        connections += 1;
        callback();
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          subjects.push(/^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString())?.[1]?.trim() ?? "");
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
    try {
      useSmtpUrl(`smtp://127.0.0.1:${(counting.server.address() as net.AddressInfo).port}`);
      await queue(30);
      // Before decision 109: one connection (and greeting) per message, one message at a time.
      expect(await deliverDueEmails({ limit: 30 })).toEqual({ sent: 30, failed: 0 });
      expect(connections).toBeGreaterThanOrEqual(1);
      expect(connections).toBeLessThanOrEqual(5);
      expect(subjects.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `Message ${i}`).sort());
      expect((await outboxRows()).every((row) => row.status === "sent")).toBe(true);
    } finally {
      useSmtpUrl(smtp.current.url);
      await new Promise<void>((resolve) => counting.close(() => resolve()));
    }
  });

  test("a lease is renewed while a send runs, so a live worker keeps its row", async () => {
    await queue();
    const silent = await startSilentServer();
    try {
      useSmtpUrl(silent.url);
      // A 600 ms lease, renewed every 200 ms: well past it, nobody else may take the row.
      const workerA = deliverDueEmails({ leaseMs: 600 });
      await until(() => silent.connections() > 0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      useSmtpUrl(smtp.current.url);
      expect(await deliverDueEmails()).toEqual({ sent: 0, failed: 0 });
      await silent.close();
      expect(await workerA).toEqual({ sent: 0, failed: 1 });
      expect(smtp.current.messages).toHaveLength(0);
    } finally {
      await silent.close();
    }
  });

  test("a month's invoice e-mails queued first never hold back a password reset queued after them", async () => {
    const month = Array.from({ length: 3 }, (_, i) => ({
      kind: "invoice_issued" as const,
      to: `bulk${i}@example.com`,
      subject: `Invoice ${i}`,
      text: "Your invoice",
      dedupeKey: `bulk-test:${i}`,
    }));
    expect(await enqueueEmails(db(), month)).toBe(3);
    // Due for an hour already, a minute apart; the reset comes while they wait.
    for (let i = 0; i < 3; i++) {
      await db()
        .updateTable("outbox")
        .set({ next_attempt_at: sql`now() - make_interval(mins => ${60 - i})` })
        .where("dedupe_key", "=", `bulk-test:${i}`)
        .execute();
    }
    await enqueueEmail(db(), { kind: "account_password_reset", to: "reset@example.com", subject: "Reset", text: "x" });

    const claim = () => claimNextOutboxMessage({ leaseMs: 90_000 });
    const order: string[] = [];
    for (let claimed = await claim(); claimed; claimed = await claim()) order.push(claimed.to_address);
    expect(order).toEqual(["reset@example.com", "bulk0@example.com", "bulk1@example.com", "bulk2@example.com"]);
    expect((await outboxRows()).every((row) => row.status === "sending")).toBe(true);
  });

  test("backoff: 15 attempts over about a day, then failed", () => {
    const now = Date.UTC(2030, 0, 1);
    let waited = 0;
    for (let attempts = 1; attempts < MAX_ATTEMPTS; attempts++) {
      waited += nextAttemptAt(attempts, now, () => 0)!.getTime() - now;
    }
    expect(waited / 3_600_000).toBeGreaterThan(22);
    expect(waited / 3_600_000).toBeLessThan(26);
    expect(nextAttemptAt(MAX_ATTEMPTS, now)).toBeNull();
  });

  test("finished rows older than OUTBOX_KEEP_SENT_DAYS are pruned (sent, skipped, failed); newer and unsent ones stay", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const row = (
      subject: string,
      status: "sent" | "failed" | "pending" | "skipped",
      sentAt: Date | null,
      age = 200,
    ) => ({
      kind: "other" as const,
      to_address: "p@example.com",
      subject,
      text_body: "x",
      status,
      sent_at: sentAt,
      created_at: daysAgo(age),
    });
    await db()
      .insertInto("outbox")
      .values([
        row("old sent", "sent", daysAgo(91)),
        row("recent sent", "sent", daysAgo(89)),
        // Never sent and never retried on their own: before decision 109 these stayed for ever.
        row("old failed", "failed", null),
        row("old skipped", "skipped", null),
        // Migration 0005's record of a notification from before the outbox (no text): kept.
        { ...row("old record", "failed", null), text_body: "" },
        row("recent skipped", "skipped", null, 10),
        row("old pending", "pending", null),
      ])
      .execute();
    expect(await pruneOutbox()).toBe(3);
    const left = await db().selectFrom("outbox").select("subject").orderBy("subject").execute();
    expect(left.map((r) => r.subject)).toEqual(["old pending", "old record", "recent sent", "recent skipped"]);

    process.env.OUTBOX_KEEP_SENT_DAYS = "30";
    resetEnvCache();
    try {
      expect(await pruneOutbox()).toBe(1);
    } finally {
      delete process.env.OUTBOX_KEEP_SENT_DAYS;
      resetEnvCache();
    }
  });
});

describe("completion e-mails carry a small copy of the after photo (item 9)", () => {
  let uploads: string;
  let fixtures: string;
  let bigPhoto: string;
  let admin: TestUser;
  let customer: TestUser;
  let adminCookie: string;

  beforeAll(async () => {
    admin = await createUser(db(), { admin: true });
    customer = await createUser(db(), { fullName: "Carla Customer" });
    adminCookie = await sessionCookieFor(admin.id);
    fixtures = mkdtempSync(path.join(os.tmpdir(), "outbox-attack-"));
    // A 20 MB after photo: 4,800 x 3,600 px of noise at JPEG quality 100 (a phone's raw-ish shot).
    bigPhoto = path.join(fixtures, "after.jpg");
    await sharp({
      create: {
        width: 4800,
        height: 3600,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 80 },
      },
    })
      .jpeg({ quality: 100 })
      .toFile(bigPhoto);
  }, 120_000);
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

  beforeEach(async () => {
    uploads = mkdtempSync(path.join(os.tmpdir(), "outbox-attack-uploads-"));
    setStorageForTests(createFolderStorage(uploads));
    await db().deleteFrom("services").execute();
  });
  afterEach(() => {
    setStorageForTests(undefined);
    rmSync(uploads, { recursive: true, force: true });
  });

  async function completedVisitWith(media: { contentType: string; file: string } | null) {
    const visit = await db()
      .insertInto("services")
      .values({
        customer_id: customer.id,
        service_type: "Weekly Service",
        service_date: new Date("2030-04-02T17:00:00Z"),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (media) {
      const key = `${customer.id}/${visit.id}/after_${Date.now()}.${media.contentType.split("/")[1]}`;
      await createFolderStorage(uploads).put(key, createReadStream(media.file), { contentType: media.contentType });
      await db()
        .insertInto("service_images")
        .values({
          service_id: visit.id,
          image_url: key,
          image_type: "after",
          content_type: media.contentType,
          size_bytes: statSync(media.file).size,
        })
        .execute();
    }
    const response = await callRoute(visitAction, `/admin-dashboard/visits/${visit.id}`, {
      cookie: adminCookie,
      params: { visitId: visit.id },
      form: { intent: "complete" },
    });
    expect(response.status).toBe(302);
    return visit;
  }

  test("a 20 MB after photo sends a sub-1 MB JPEG of at most 1,600 px, inline", { timeout: 120_000 }, async () => {
    expect(statSync(bigPhoto).size).toBeGreaterThan(20 * MiB);
    const visit = await completedVisitWith({ contentType: "image/jpeg", file: bigPhoto });
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });

    const [mail] = await smtp.current.waitForMessages(1);
    expect(mail.attachments).toHaveLength(1);
    const [photo] = mail.attachments;
    expect(photo).toMatchObject({ contentType: "image/jpeg", filename: "after.jpg", cid: "after-photo" });
    expect(photo.content.length).toBeLessThanOrEqual(EMAIL_PHOTO_MAX_BYTES);
    expect(photo.content.length).toBeGreaterThan(10_000);
    const meta = await sharp(photo.content).metadata();
    expect(meta.format).toBe("jpeg");
    expect(Math.max(meta.width!, meta.height!)).toBe(EMAIL_PHOTO_MAX_SIDE);
    expect([meta.width, meta.height]).toEqual([1600, 1200]);
    expect(mail.text).toContain("The after photo is attached.");
    expect(mail.text).toContain(`/customer-dashboard/visits/${visit.id}`);
    expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 1 });
  });

  test("a video sends the link to the visit and no attachment", async () => {
    const video = path.join(fixtures, "after.mp4");
    await import("node:fs/promises").then((fs) =>
      fs.writeFile(
        video,
        Buffer.concat([Buffer.from("00000018667479706d7034320000000069736f6d6d703432", "hex"), Buffer.alloc(MiB)]),
      ),
    );
    const visit = await completedVisitWith({ contentType: "video/mp4", file: video });
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.current.waitForMessages(1);
    expect(mail.attachments).toHaveLength(0);
    expect(mail.text).toContain("Watch the video of your yard in the portal.");
    expect(mail.text).toContain(`/customer-dashboard/visits/${visit.id}`);
    expect(mail.html).not.toContain("cid:");
  });

  test("no after photo: the link, no attachment", async () => {
    const visit = await completedVisitWith(null);
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.current.waitForMessages(1);
    expect(mail.attachments).toHaveLength(0);
    expect(mail.text).toContain(`/customer-dashboard/visits/${visit.id}`);
  });

  test("an 'image' sharp cannot read still sends the e-mail with its link, once", async () => {
    const broken = path.join(fixtures, "broken.png");
    await import("node:fs/promises").then((fs) => fs.writeFile(broken, Buffer.alloc(4096, 7)));
    const visit = await completedVisitWith({ contentType: "image/png", file: broken });
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.current.waitForMessages(1);
    expect(mail.attachments).toHaveLength(0);
    expect(mail.text).toContain(`/customer-dashboard/visits/${visit.id}`);
    // It says so only when it is (issue 35 item 6): no "attached" sentence, no broken inline image.
    expect(mail.text).not.toContain("The after photo is attached.");
    expect(mail.text).not.toMatch(/\n{3,}/);
    expect(mail.html).not.toContain("cid:after-photo");
    expect(mail.html).toContain("See your visit");
    expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 1, last_error: null });
  });

  test("an after photo deleted after the e-mail was queued: sent without it, and without saying it is attached", async () => {
    const photo = path.join(fixtures, "small-after.jpg");
    await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a7" } })
      .jpeg()
      .toFile(photo);
    const visit = await completedVisitWith({ contentType: "image/jpeg", file: photo });
    const [queued] = await db().selectFrom("outbox").select(["text_body", "attachments"]).execute();
    // Queued while the photo was there: the stored e-mail speaks of it.
    expect(queued.text_body).toContain("The after photo is attached.");
    rmSync(uploads, { recursive: true, force: true });
    expect(await deliverDueEmails()).toEqual({ sent: 1, failed: 0 });
    const [mail] = await smtp.current.waitForMessages(1);
    expect(mail.attachments).toHaveLength(0);
    expect(mail.text).not.toContain("attached");
    expect(mail.text).toContain(`Your Weekly Service visit on`);
    expect(mail.text).toContain(`/customer-dashboard/visits/${visit.id}`);
    expect(mail.html).not.toContain("cid:");
    expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 1, last_error: null });
  });
});
