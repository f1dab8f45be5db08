import { afterEach, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { createUser } from "../../../tests/helpers/factories";
import { PURGE_JOBS, runPaymentCollectionJob, runPlanVisitGeneration, runPurgeJobs } from "./job-runs.server";
import { pruneOutbox } from "~/features/outbox/outbox.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";

const database = useAppDatabase();
const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

afterEach(() => vi.restoreAllMocks());

/** One row each side of every job's line: the old one goes, the live one stays. */
async function seedBothSides() {
  const db = database.current.db;
  const user = await createUser(db);
  await db
    .insertInto("sessions")
    .values([
      { id: "purge-expired", user_id: user.id, data: "{}", expires_at: ago(1000) },
      { id: "purge-live", user_id: user.id, data: "{}", expires_at: new Date(Date.now() + HOUR) },
    ])
    .execute();
  await db
    .insertInto("rate_limits")
    .values([
      { key: "purge:old", hits: 3, window_started_at: ago(25 * HOUR) },
      { key: "purge:new", hits: 3, window_started_at: new Date() },
    ])
    .execute();
  await db
    .insertInto("sign_in_challenges")
    .values([
      { id_hash: "purge-old", user_id: user.id, expires_at: ago(1000) },
      { id_hash: "purge-new", user_id: user.id, expires_at: new Date(Date.now() + HOUR) },
    ])
    .execute();
  await db
    .insertInto("account_tokens")
    .values([
      { token_hash: "purge-old", user_id: user.id, purpose: "verify-email", expires_at: ago(25 * HOUR) },
      { token_hash: "purge-recent", user_id: user.id, purpose: "reset-password", expires_at: ago(HOUR) },
    ])
    .execute();
  await db
    .insertInto("stripe_events")
    .values([
      { id: "evt_purge_old", type: "payment_intent.succeeded", received_at: ago(31 * 24 * HOUR) },
      { id: "evt_purge_recent", type: "payment_intent.succeeded", received_at: ago(4 * 24 * HOUR) },
    ])
    .execute();
  // Skipped rows (no SMTP_URL: the embedded default, where no outbox worker runs) older than
  // OUTBOX_KEEP_SENT_DAYS go; a recent one stays (decision 109).
  await db
    .insertInto("outbox")
    .values(
      [
        ["purge-old", ago(91 * 24 * HOUR)],
        ["purge-recent", ago(24 * HOUR)],
      ].map(([subject, createdAt]) => ({
        kind: "other" as const,
        to_address: "purge@example.com",
        subject: String(subject),
        text_body: "x",
        status: "skipped" as const,
        created_at: createdAt as Date,
      })),
    )
    .execute();
  // "Text me again" requests: one closed two days ago goes, one still open stays.
  await db
    .insertInto("text_opt_in_requests")
    .values([
      { user_id: user.id, phone: "+17025550101", expires_at: ago(48 * HOUR) },
      { user_id: user.id, phone: "+17025550102", expires_at: new Date(Date.now() + HOUR) },
    ])
    .execute();
  // Sign-ups at /start (decision 129): one past its expiry goes, one in progress stays.
  await db
    .insertInto("sign_ups")
    .values([
      { answers: JSON.stringify({ zip: "89001" }), expires_at: ago(HOUR) },
      { answers: JSON.stringify({ zip: "89002" }), expires_at: new Date(Date.now() + HOUR) },
    ])
    .execute();
}

async function leftOver() {
  const db = database.current.db;
  return {
    sessions: (await db.selectFrom("sessions").select("id").where("id", "like", "purge-%").execute()).map((r) => r.id),
    rate_limits: (await db.selectFrom("rate_limits").select("key").where("key", "like", "purge:%").execute()).map(
      (r) => r.key,
    ),
    sign_in_challenges: (
      await db.selectFrom("sign_in_challenges").select("id_hash").where("id_hash", "like", "purge-%").execute()
    ).map((r) => r.id_hash),
    account_tokens: (
      await db.selectFrom("account_tokens").select("token_hash").where("token_hash", "like", "purge-%").execute()
    ).map((r) => r.token_hash),
    stripe_events: (await db.selectFrom("stripe_events").select("id").where("id", "like", "evt_purge_%").execute()).map(
      (r) => r.id,
    ),
    outbox: (await db.selectFrom("outbox").select("subject").where("subject", "like", "purge-%").execute()).map(
      (r) => r.subject,
    ),
    text_opt_in_requests: (await db.selectFrom("text_opt_in_requests").select("phone").execute()).map((r) => r.phone),
    sign_ups: (await db.selectFrom("sign_ups").select("answers").execute()).map((r) => r.answers.zip),
  };
}

describe("purge jobs", () => {
  it("are listed by table, one job each", () => {
    expect(PURGE_JOBS.map((job) => job.name)).toEqual([
      "sessions",
      "rate_limits",
      "sign_in_challenges",
      "account_tokens",
      "stripe_events",
      "text_opt_in_requests",
      "sign_ups",
    ]);
  });

  it("each deletes only what its table no longer needs, and is logged by name with its count", async () => {
    await seedBothSides();
    const info = vi.spyOn(log, "info");
    await runPurgeJobs();
    // The outbox has its own job (outbox:prune, decision 114), run here beside the purges.
    expect(await pruneOutbox()).toBe(1);
    expect(await leftOver()).toEqual({
      sessions: ["purge-live"],
      rate_limits: ["purge:new"],
      sign_in_challenges: ["purge-new"],
      account_tokens: ["purge-recent"],
      stripe_events: ["evt_purge_recent"],
      outbox: ["purge-recent"],
      text_opt_in_requests: ["+17025550102"],
      sign_ups: ["89002"],
    });
    const done = info.mock.calls.filter(([event]) => event === "purge.done").map(([, fields]) => fields);
    expect(done.map((fields) => fields?.job)).toEqual(PURGE_JOBS.map((job) => job.name));
    expect(done.every((fields) => Number(fields?.deleted) >= 1)).toBe(true);
  });

  it("a job that fails is logged by name, the others still run, and the round throws for the queue's retry", async () => {
    const warn = vi.spyOn(log, "warn");
    const ran: string[] = [];
    const round = runPurgeJobs([
      { name: "first", run: async () => (ran.push("first"), 0) },
      {
        name: "broken",
        run: async () => {
          throw new Error("relation does not exist");
        },
      },
      { name: "last", run: async () => (ran.push("last"), 0) },
    ]);
    await expect(round).rejects.toThrow("Purges failed: broken");
    expect(ran).toEqual(["first", "last"]);
    expect(warn).toHaveBeenCalledWith("purge.failed", expect.objectContaining({ job: "broken" }));
  });
});

describe("plan visit generation (hourly, and at start)", () => {
  it("logs its counts", async () => {
    const info = vi.spyOn(log, "info");
    await runPlanVisitGeneration({ now: new Date("2026-11-23T14:00:00Z") });
    expect(info).toHaveBeenCalledWith(
      "plan_visits.done",
      expect.objectContaining({ plans: 0, inserted: 0, moved: 0, cancelled: 0 }),
    );
  });

  it("logs a failure and throws it (the queue retries), and says when another generator holds the lock", async () => {
    const warn = vi.spyOn(log, "warn");
    const info = vi.spyOn(log, "info");
    await expect(
      runPlanVisitGeneration({
        generate: async () => {
          throw new Error("connection terminated");
        },
      }),
    ).rejects.toThrow("connection terminated");
    expect(warn).toHaveBeenCalledWith(
      "plan_visits.failed",
      expect.objectContaining({ error: "connection terminated" }),
    );
    await runPlanVisitGeneration({
      generate: async () => ({ ran: false, plans: 0, inserted: 0, moved: 0, cancelled: 0 }),
    });
    expect(info).toHaveBeenCalledWith("plan_visits.skipped", expect.anything());
  });

  it("waits two minutes after start by default", () => {
    expect(getEnv().SCHEDULED_WORK_DELAY_SECONDS).toBe(120);
  });
});

describe("payment collection (hourly, after the billing run)", () => {
  it("logs its counts on the real database (nothing to collect without Stripe), a failure, and another holder of the lock", async () => {
    const info = vi.spyOn(log, "info");
    const warn = vi.spyOn(log, "warn");
    await runPaymentCollectionJob({ now: new Date("2026-11-23T14:00:00Z") });
    expect(info).toHaveBeenCalledWith(
      "payment_collection.done",
      expect.objectContaining({ ran: true, charged: 0, paused: 0 }),
    );
    await expect(
      runPaymentCollectionJob({
        collect: async () => {
          throw new Error("connection terminated");
        },
      }),
    ).rejects.toThrow("connection terminated");
    expect(warn).toHaveBeenCalledWith(
      "payment_collection.failed",
      expect.objectContaining({ error: "connection terminated" }),
    );
    await runPaymentCollectionJob({
      collect: async () => ({ ran: false, charged: 0, succeeded: 0, failed: 0, paused: 0 }),
    });
    expect(info).toHaveBeenCalledWith("payment_collection.skipped", expect.anything());
  });
});
