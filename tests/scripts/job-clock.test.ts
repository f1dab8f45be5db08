import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingCollectCommand } from "../../scripts/billing-collect";
import { billingRunCommand } from "../../scripts/billing-run";
import { parseJobClock, USAGE_EXIT } from "../../scripts/job-clock";
import { visitsGenerateCommand } from "../../scripts/visits-generate";
import { useAppDatabase } from "../helpers/app-database";
import { giveCard, useStripe } from "../helpers/stripe-billing";
import { startStripeStandIn, type StripeStandIn } from "../helpers/stripe-stand-in";
import { getSiteSettings } from "~/content/content.server";

/**
 * The jobs' clock (issue 34 item 9, docs/decisions/112): `--date YYYY-MM-DD` is the business day a
 * job acts as. The commands the built scripts run are called here in process, on a real database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL), with the bundled content's rules and the
 * stand-in of Stripe's API, walking one plan through two months.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const REAL_NOW = new Date("2026-12-02T18:00:00Z");

function output() {
  const out = { lines: [] as string[], errors: [] as string[] };
  return {
    ...out,
    options: {
      log: (line: string) => out.lines.push(line),
      error: (line: string) => out.errors.push(line),
      now: REAL_NOW,
    },
  };
}

describe("parseJobClock", () => {
  it("no --date, or today's, is today as of the real now", () => {
    expect(parseJobClock([], REAL_NOW)).toEqual({
      ok: true,
      clock: { day: "2026-12-02", now: REAL_NOW, given: false },
    });
    expect(parseJobClock(["--date", "2026-12-02"], REAL_NOW)).toEqual({
      ok: true,
      clock: { day: "2026-12-02", now: REAL_NOW, given: true },
    });
  });

  it("another day is its first instant in Las Vegas, in standard and in daylight time", () => {
    expect(parseJobClock(["--date", "2027-03-01"], REAL_NOW)).toEqual({
      ok: true,
      clock: { day: "2027-03-01", now: new Date("2027-03-01T08:00:00Z"), given: true },
    });
    expect(parseJobClock(["--date=2027-07-01"], REAL_NOW)).toEqual({
      ok: true,
      clock: { day: "2027-07-01", now: new Date("2027-07-01T07:00:00Z"), given: true },
    });
  });

  it.each([
    [["--date", "2027-02-30"], /"2027-02-30" is not a day/],
    [["--date", "2027-13-01"], /"2027-13-01" is not a day/],
    [["--date", "27-03-01"], /not a day/],
    [["--date", "2027-3-1"], /not a day/],
    [["--date", "tomorrow"], /not a day/],
    [["--date", "1999-12-31"], /not a day/],
    [["--date="], /"" is not a day/],
    [["--date"], /--date needs a day/],
    [["--date", "--date", "2027-03-01"], /--date needs a day/],
    [["--date", "2027-03-01", "--date", "2027-03-02"], /given twice/],
    [["2027-03-01"], /Unknown argument "2027-03-01"/],
    [["--days", "3"], /Unknown argument "--days"/],
  ])("refuses %j with a message naming the form", (argv, message) => {
    const parsed = parseJobClock(argv, REAL_NOW);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toMatch(message);
      expect(parsed.message).toContain("--date YYYY-MM-DD");
    }
  });
});

describe("the job commands with --date", () => {
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(async () => {
    useStripe(null);
    await standIn.close();
  });

  const counts = async () => ({
    visits: Number((await db().selectFrom("services").select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n),
    invoices: Number(
      (await db().selectFrom("invoices").select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n,
    ),
    counters: Number(
      (await db().selectFrom("invoice_number_counters").select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n,
    ),
    failures: Number(
      (await db().selectFrom("invoice_charge_failures").select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n,
    ),
    outbox: Number((await db().selectFrom("outbox").select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n),
  });

  it("a bad --date exits 2 with the reason and stores nothing, whichever job", async () => {
    const customer = await db()
      .insertInto("users")
      .values({ email: "clock-refused@example.com" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("customer_plans")
      .values({
        customer_id: customer.id,
        catalogue_plan_id: "servicePlan.weekly",
        catalogue_plan_name: "Weekly Swift Service",
        visits_per_week: 1,
        weekdays: [2],
        dog_count: 1,
        yard_size: "medium",
        start_date: "2026-11-01",
      })
      .execute();
    const before = await counts();
    for (const command of [billingRunCommand, billingCollectCommand, visitsGenerateCommand]) {
      for (const argv of [["--date", "2027-02-29"], ["--date"], ["--month", "2027-02"]]) {
        const out = output();
        expect(await command(argv, out.options)).toBe(USAGE_EXIT);
        expect(out.lines).toEqual([]);
        expect(out.errors).toHaveLength(1);
        expect(out.errors[0]).toContain("--date YYYY-MM-DD");
      }
    }
    // Without the refusal the run would have billed the plan and made its visits.
    expect(await counts()).toEqual(before);
    await db().deleteFrom("customer_plans").execute();
    await db().deleteFrom("users").where("id", "=", customer.id).execute();
  });

  it("walks a plan through two months: visits as of each day, each month billed on its day, the card tried on the due day and retried 3 days later", async () => {
    const settings = await getSiteSettings();
    // The bundled content this walk is written for: billing on the 1st, a retry 3 days after a failure.
    expect(settings.billingRules.billingDay).toBe(1);
    const horizon = settings.planRules.horizonDays;
    useStripe(standIn);
    const customer = await db()
      .insertInto("users")
      .values({ email: "clock-walk@example.com" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const plan = await db()
      .insertInto("customer_plans")
      .values({
        customer_id: customer.id,
        catalogue_plan_id: "servicePlan.weekly",
        catalogue_plan_name: "Weekly Swift Service",
        visits_per_week: 1,
        // Tuesdays, from Tuesday 2030-01-01.
        weekdays: [2],
        dog_count: 1,
        yard_size: "medium",
        start_date: "2030-01-01",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { customerId: stripeCustomer } = await giveCard(db(), standIn, customer.id);
    standIn.outcomes.set(stripeCustomer, "card_declined");

    // January 1st, 2030: the visits of the horizon from that day, January's invoice.
    let out = output();
    expect(await visitsGenerateCommand(["--date", "2030-01-01"], out.options)).toBe(0);
    expect(out.lines[0]).toBe("As of business day 2030-01-01 (America/Los_Angeles).");
    const visits = await db()
      .selectFrom("services")
      .select("plan_slot")
      .where("plan_id", "=", plan.id)
      .orderBy("plan_slot")
      .execute();
    const slots = visits.map((visit) => String(visit.plan_slot));
    expect(slots[0]).toBe("2030-01-01");
    expect(slots.every((slot) => slot <= new Date(Date.UTC(2030, 0, 1 + horizon)).toISOString().slice(0, 10))).toBe(
      true,
    );
    expect(slots.length).toBe(Math.floor(horizon / 7) + 1);

    out = output();
    expect(await billingRunCommand(["--date", "2030-01-01"], out.options)).toBe(0);
    expect(out.lines[1]).toMatch(/^Month 2030-01: plans 1, invoices made 1, plans without a price 0 /);
    out = output();
    expect(await billingRunCommand(["--date=2030-01-20"], out.options)).toBe(0);
    expect(out.lines[1]).toMatch(/^Month 2030-01: plans 1, invoices made 0,/);

    // The collection on the due day charges January's invoice; the card is declined.
    out = output();
    expect(await billingCollectCommand(["--date", "2030-01-01"], out.options)).toBe(0);
    expect(out.lines[1]).toBe("Charged 1 (paid 0, failed 1); plans paused for payment 0.");
    const january = await db()
      .selectFrom("invoices")
      .select(["id", "number", "issued_on", "next_charge_on", "first_failed_at"])
      .where("period_month", "=", "2030-01-01")
      .executeTakeFirstOrThrow();
    expect(String(january.issued_on)).toBe("2030-01-01");
    expect(january.number).toBe("2030-000001");
    expect(String(january.next_charge_on)).toBe("2030-01-04");
    expect(january.first_failed_at).toEqual(new Date("2030-01-01T08:00:00Z"));
    // Not before its day: January 3rd tries nothing; January 4th retries (attempt 2), and it pays.
    out = output();
    expect(await billingCollectCommand(["--date", "2030-01-03"], out.options)).toBe(0);
    expect(out.lines[1]).toBe("Charged 0 (paid 0, failed 0); plans paused for payment 0.");
    standIn.outcomes.set(stripeCustomer, "succeeded");
    out = output();
    expect(await billingCollectCommand(["--date", "2030-01-04"], out.options)).toBe(0);
    expect(out.lines[1]).toBe("Charged 1 (paid 1, failed 0); plans paused for payment 0.");
    expect(standIn.posts("/v1/payment_intents").map((request) => request.idempotencyKey)).toEqual([
      `invoice:${january.id}:attempt:1:amount:8900`,
      `invoice:${january.id}:attempt:2:amount:8900`,
    ]);

    // February 1st: February's invoice, numbered on in the same year, charged and paid that day.
    out = output();
    expect(await billingRunCommand(["--date", "2030-02-01"], out.options)).toBe(0);
    expect(out.lines[1]).toMatch(/^Month 2030-02: plans 1, invoices made 1,/);
    out = output();
    expect(await billingCollectCommand(["--date", "2030-02-01"], out.options)).toBe(0);
    expect(out.lines[1]).toBe("Charged 1 (paid 1, failed 0); plans paused for payment 0.");
    const invoices = await db()
      .selectFrom("invoices")
      .select(["number", "period_month", "status", "issued_on"])
      .orderBy("number")
      .execute();
    expect(invoices.map((row) => [row.number, String(row.period_month), row.status, String(row.issued_on)])).toEqual([
      ["2030-000001", "2030-01-01", "paid", "2030-01-01"],
      ["2030-000002", "2030-02-01", "paid", "2030-02-01"],
    ]);
    // February's visits: the generator as of February 1st makes the ones past January's horizon.
    out = output();
    expect(await visitsGenerateCommand(["--date", "2030-02-01"], out.options)).toBe(0);
    const made = Number(/visits made: (\d+)/.exec(out.lines[1])?.[1]);
    expect(made).toBeGreaterThan(0);
    const last = await db()
      .selectFrom("services")
      .select("plan_slot")
      .where("plan_id", "=", plan.id)
      .orderBy("plan_slot", "desc")
      .executeTakeFirstOrThrow();
    expect(String(last.plan_slot) > slots[slots.length - 1]).toBe(true);
  });
});
