import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser } from "../helpers/factories";
import { callRoute, locationOf } from "../helpers/route-calls";
import { EMAIL_HAS_ACCOUNT } from "~/features/sign-up/sign-up-finish.server";
import { SIGN_UP_START_LIMIT } from "~/features/sign-up/sign-up-state.server";
import { action, loader } from "~/routes/start";

/**
 * /start through its loader and action with a real database (issue 37 item 1, decision 129): a
 * stranger's sign-up ends in an account, a plan with its price locked, its first visit, today's
 * invoice matching the summary to the cent and the two e-mails; every refusal (a posted price or
 * plan, a second account for an address, the honeypot, the rate limit) stores nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let client = 0;
/** Each test its own client address, so that the per-client limits do not meet. */
function newClient() {
  client += 1;
  return `203.0.113.${client}`;
}

class Visitor {
  cookies = new Map<string, string>();
  constructor(readonly ip = newClient()) {}
  private headers() {
    return {
      "Fly-Client-IP": this.ip,
      ...(this.cookies.size ? { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } : {}),
    };
  }
  private keep(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair.split("=");
      if (value.join("=") === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value.join("="));
    }
    return response;
  }
  async post(step: string, fields: [string, string][]) {
    const url = step === "zip" ? "/start" : `/start?step=${step}`;
    const headers = this.headers();
    const response = await callRoute(action, url, {
      headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      method: "POST",
    });
    return this.keep(response);
  }
  async get(step: string) {
    const url = step === "zip" ? "/start" : `/start?step=${step}`;
    return this.keep(await callRoute(loader, url, { headers: this.headers() }));
  }
}

const count = async (table: "sign_ups" | "users" | "customer_plans" | "invoices" | "waitlist_entries" | "outbox") =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function answerUpToSummary(visitor: Visitor, extra: [string, string][] = []) {
  expect(locationOf(await visitor.post("zip", [["zip", "89048"]]))).toBe("/start?step=yard");
  const yard = await visitor.post("yard", [
    ["street", "123 Desert Rose Ln"],
    ["city", "Pahrump"],
    ["dogCount", "2"],
    ["yardSize", "medium"],
    ["lastCleaned", "1-3-months"],
    ["gateCode", "4321"],
    ["hazards", "Cactus by the shed"],
  ]);
  expect(locationOf(yard)).toBe("/start?step=plan");
  // A price and a discount posted beside the plan are not read.
  const plan = await visitor.post("plan", [
    ["cataloguePlanId", "servicePlan.weekly"],
    ["price", "1"],
    ["monthlyCents", "1"],
    ...extra,
  ]);
  expect(locationOf(plan)).toBe("/start?step=days");
  const days = await visitor.post("days", [["weekdays", "1"]]);
  expect(locationOf(days)).toBe("/start?step=summary");
  const summary = await visitor.get("summary");
  expect(summary.status).toBe(200);
  return (await summary.json()) as {
    summary: { todayCents: number; monthlyCents: number; initialCleanCents: number; firstMonthCents: number };
  };
}

const account = (email: string): [string, string][] => [
  ["fullName", "Sam Stranger"],
  ["email", email],
  ["password", "correct horse battery"],
  ["mobilePhone", "702-555-0123"],
  ["textVisits", "on"],
  ["agree", "on"],
];

describe("/start", () => {
  beforeEach(async () => {
    await db().deleteFrom("rate_limits").execute();
  });

  it("signs a stranger up: account, plan at the catalogue price, first visit, today's invoice to the cent, e-mails", async () => {
    const visitor = new Visitor();
    const { summary } = await answerUpToSummary(visitor);
    expect(summary.initialCleanCents).toBe(5900);
    expect(summary.todayCents).toBe(summary.initialCleanCents + summary.firstMonthCents);
    const users = await count("users");
    const done = await visitor.post("account", account("sam@example.com"));
    expect(done.status).toBe(302);
    expect(locationOf(done)).toBe("/customer-dashboard");
    expect(await count("users")).toBe(users + 1);

    const user = await db()
      .selectFrom("users")
      .select("id")
      .where("email", "=", "sam@example.com")
      .executeTakeFirstOrThrow();
    const plan = await db()
      .selectFrom("customer_plans")
      .selectAll()
      .where("customer_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(plan.catalogue_plan_id).toBe("servicePlan.weekly");
    expect(plan.weekdays).toEqual([1]);
    expect(plan.price_cents! + plan.add_on_cents!).toBe(summary.monthlyCents);
    const visits = await db()
      .selectFrom("services")
      .select(["service_date", "status"])
      .where("plan_id", "=", plan.id)
      .execute();
    expect(visits.length).toBeGreaterThan(0);
    expect(visits.every((visit) => visit.status === "scheduled")).toBe(true);
    const invoices = await db().selectFrom("invoices").selectAll().where("customer_id", "=", user.id).execute();
    expect(invoices).toHaveLength(1);
    expect(invoices[0].total_cents).toBe(summary.todayCents);
    expect(invoices[0].status).toBe("open");
    const lines = await db()
      .selectFrom("invoice_lines")
      .select(["kind", "amount_cents"])
      .where("invoice_id", "=", invoices[0].id)
      .orderBy("position")
      .execute();
    expect(lines.map((line) => line.kind)).toEqual([
      "initial_clean",
      expect.stringMatching(/^(plan_month|prorated_month)$/),
    ]);
    expect(lines[1].amount_cents).toBe(summary.firstMonthCents);
    // The ledger holds the invoice (its trigger), so the balance is what the summary said.
    const balance = await db()
      .selectFrom("ledger_entries")
      .select((eb) => eb.fn.sum<string>("amount_cents").as("sum"))
      .where("customer_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Number(balance.sum)).toBe(summary.todayCents);
    const yard = await db()
      .selectFrom("yard_profiles")
      .selectAll()
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(yard).toMatchObject({ zip: "89048", gate_code: "4321", dog_count: 2, mobile_phone: "+17025550123" });
    expect(yard.text_consent_at).not.toBeNull();
    const mail = await db()
      .selectFrom("outbox")
      .select(["kind", "to_address", "subject", "text_body"])
      .where("related_id", "=", plan.id)
      .execute();
    expect(mail.map((m) => m.subject).sort()).toEqual([
      expect.stringMatching(/^New customer: Sam Stranger$/),
      expect.stringMatching(/^Welcome to .*: your first visit is /),
    ]);
    // Never the gate code in an e-mail (decision 032).
    expect(mail.some((m) => m.text_body.includes("4321"))).toBe(false);
    const row = await db()
      .selectFrom("sign_ups")
      .selectAll()
      .where("customer_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.finished_at).not.toBeNull();
    // The finished sign-up is forgotten: its page starts over.
    expect(locationOf(await visitor.get("summary"))).toBe("/start");
  });

  it("never makes a second account for an address: it asks to sign in, and stores nothing", async () => {
    await createUser(db(), { email: "taken@example.com" });
    const visitor = new Visitor();
    await answerUpToSummary(visitor);
    const before = {
      users: await count("users"),
      plans: await count("customer_plans"),
      invoices: await count("invoices"),
    };
    const refused = await visitor.post("account", account("TAKEN@example.com"));
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { refusal: { fieldErrors: { email: string[] }; signIn: boolean } };
    expect(body.refusal.fieldErrors.email).toEqual([EMAIL_HAS_ACCOUNT]);
    expect(body.refusal.signIn).toBe(true);
    expect({
      users: await count("users"),
      plans: await count("customer_plans"),
      invoices: await count("invoices"),
    }).toEqual(before);
    // The answers are kept: the summary is still there.
    expect((await visitor.get("summary")).status).toBe(200);
  });

  it("refuses a plan id it did not offer, and keeps the answers as they were", async () => {
    const visitor = new Visitor();
    await answerUpToSummary(visitor);
    const before = await db()
      .selectFrom("sign_ups")
      .select("answers")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    const refused = await visitor.post("plan", [["cataloguePlanId", "servicePlan.yard-refresh"]]);
    expect(refused.status).toBe(400);
    const after = await db()
      .selectFrom("sign_ups")
      .select("answers")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(after.answers).toEqual(before.answers);
  });

  it("sends a bot that fills the honeypot back to the start, storing nothing", async () => {
    const rows = await count("sign_ups");
    const visitor = new Visitor();
    const response = await visitor.post("zip", [
      ["zip", "89048"],
      ["website", "http://spam.example"],
    ]);
    expect(locationOf(response)).toBe("/start");
    expect(visitor.cookies.has("__start")).toBe(false);
    expect(await count("sign_ups")).toBe(rows);
  });

  it("limits new sign-ups per client", async () => {
    const rows = await count("sign_ups");
    const ip = newClient();
    for (let i = 0; i < SIGN_UP_START_LIMIT.limit; i += 1) {
      expect(locationOf(await new Visitor(ip).post("zip", [["zip", "89048"]]))).toBe("/start?step=yard");
    }
    const limited = await new Visitor(ip).post("zip", [["zip", "89048"]]);
    expect(limited.status).toBe(429);
    expect(await count("sign_ups")).toBe(rows + SIGN_UP_START_LIMIT.limit);
  });

  it("puts an out-of-area ZIP on the waitlist, once per address and ZIP", async () => {
    const visitor = new Visitor();
    expect(locationOf(await visitor.post("zip", [["zip", "10001"]]))).toBe("/start?step=waitlist");
    expect(locationOf(await visitor.get("yard"))).toBe("/start");
    const entries = await count("waitlist_entries");
    expect(
      locationOf(
        await visitor.post("waitlist", [
          ["email", "far@example.com"],
          ["zip", "10001"],
        ]),
      ),
    ).toBe("/start?step=waitlisted");
    await visitor.post("waitlist", [
      ["email", "FAR@example.com"],
      ["zip", "10001"],
    ]);
    expect(await count("waitlist_entries")).toBe(entries + 1);
    const bad = await visitor.post("waitlist", [
      ["email", "not an address"],
      ["zip", "10001"],
    ]);
    expect(bad.status).toBe(400);
    expect(await count("waitlist_entries")).toBe(entries + 1);
  });
});
