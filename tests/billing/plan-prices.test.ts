import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { ADD_ONS, CATALOGUE, MAIL_CONTEXT, RULES, bill, createPlan } from "../helpers/billing-fixtures";
import { clearMoney } from "../helpers/ledger";
import { customerWithTuesdayPlan, PLAN_TEST_MONDAY } from "../helpers/plan-seed";
import type { PlanCard } from "~/content/types";
import { loadBillingTab } from "~/features/billing/billing-pages.server";
import { priceChangeDay, priceForMonth } from "~/features/billing/plan-prices";
import { applyCataloguePrices } from "~/features/billing/price-changes.server";
import { loadAdminPlan } from "~/features/plans/admin-plan-page.server";
import { changePlan } from "~/features/plans/plan-changes.server";
import { loadYourPlan } from "~/features/plans/your-plan.server";

/**
 * Prices locked on the customer plan (issue 34 item 6, docs/decisions/116): one regression test
 * per rule, each with both sides (what is billed and stored, and what is not).
 */
const database = useAppDatabase();
const db = () => database.current.db;

beforeEach(async () => {
  await clearMoney(db());
  await db().deleteFrom("outbox").execute();
});

/** The catalogue with the weekly plan at another monthly price (a Studio edit). */
const weeklyAt = (amount: number): PlanCard[] =>
  CATALOGUE.map((card) => (card._id === "servicePlan.weekly" ? { ...card, price: { amount, unit: "month" } } : card));
const withoutWeekly = CATALOGUE.filter((card) => card._id !== "servicePlan.weekly");
/** 09:00 in Las Vegas on that day (PST before 14 March, PDT after). */
const nine = (day: string) => new Date(`${day}T${day >= "2027-03-14" && day < "2027-11-07" ? "16" : "17"}:00:00Z`);

const planRow = (id: string) =>
  db().selectFrom("customer_plans").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const invoiceOf = (planId: string, month: string) =>
  db()
    .selectFrom("invoices")
    .select(["total_cents", "status"])
    .where("plan_id", "=", planId)
    .where("period_month", "=", month)
    .executeTakeFirst();
const priceMails = (planId: string) =>
  db()
    .selectFrom("outbox")
    .select(["kind", "subject", "text_body"])
    .where("related_id", "=", planId)
    .where("kind", "=", "price_change")
    .execute();

describe("the first day a new price may apply", () => {
  it("is the first of a month at least the notice away", () => {
    expect(priceChangeDay("2027-03-30", 14)).toBe("2027-05-01");
    expect(priceChangeDay("2027-03-18", 14)).toBe("2027-04-01");
    expect(priceChangeDay("2027-03-19", 14)).toBe("2027-05-01");
    expect(priceChangeDay("2027-03-10", 30)).toBe("2027-05-01");
    expect(priceChangeDay("2027-03-01", 0)).toBe("2027-03-01");
  });
});

describe("prices locked on the plan", () => {
  it("locks a plan without a price at the catalogue's, as the billing run reads it, and bills that", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04", dog_count: 2 }, db());
    expect(plan.price_cents).toBeNull();
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    expect(await planRow(plan.id)).toMatchObject({ price_cents: 8900, add_on_cents: 1500, pending_price_from: null });
    expect(await invoiceOf(plan.id, "2027-03-01")).toMatchObject({ total_cents: 10400 });
    // Locking is not a price change: no e-mail about it.
    expect(await priceMails(plan.id)).toHaveLength(0);
  });

  it("a Studio typo on the 30th applies no earlier than the Terms' notice, and the customer is e-mailed once", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const typo = weeklyAt(899);
    // The 30th: the run sees the new price; 14 days on is April 13, so it applies from May 1.
    await bill({ db: db(), now: nine("2027-03-30"), catalogue: typo, mailContext: MAIL_CONTEXT });
    await bill({ db: db(), now: nine("2027-03-31"), catalogue: typo, mailContext: MAIL_CONTEXT });
    expect(await planRow(plan.id)).toMatchObject({
      price_cents: 8900,
      pending_price_cents: 89900,
      pending_add_on_cents: 0,
      pending_price_from: "2027-05-01",
    });
    const mails = await priceMails(plan.id);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("New price for your Weekly Swift Service from May 1, 2027");
    expect(mails[0].text_body).toContain(
      "From May 1, 2027, your Weekly Swift Service costs $899.00 a month (now $89.00).",
    );

    // April 1 is within the notice: April is billed at the locked price, not the typo.
    await bill({ db: db(), now: nine("2027-04-01"), catalogue: typo, mailContext: MAIL_CONTEXT });
    expect(await invoiceOf(plan.id, "2027-04-01")).toMatchObject({ total_cents: 8900 });
    // May: the new price applies, and becomes the plan's; still one e-mail.
    await bill({ db: db(), now: nine("2027-05-03"), catalogue: typo, mailContext: MAIL_CONTEXT });
    expect(await invoiceOf(plan.id, "2027-05-01")).toMatchObject({ total_cents: 89900 });
    expect(await planRow(plan.id)).toMatchObject({ price_cents: 89900, pending_price_cents: null });
    expect(await priceMails(plan.id)).toHaveLength(1);
  });

  it("a typo mended before its day drops the new price, with no second e-mail", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    await bill({ db: db(), now: nine("2027-03-30"), catalogue: weeklyAt(899), mailContext: MAIL_CONTEXT });
    await bill({ db: db(), now: nine("2027-03-31"), mailContext: MAIL_CONTEXT });
    expect(await planRow(plan.id)).toMatchObject({
      price_cents: 8900,
      pending_price_cents: null,
      pending_price_from: null,
    });
    await bill({ db: db(), now: nine("2027-05-03"), mailContext: MAIL_CONTEXT });
    expect(await invoiceOf(plan.id, "2027-05-01")).toMatchObject({ total_cents: 8900 });
    expect(await priceMails(plan.id)).toHaveLength(1);
  });

  it("takes the notice from the owner's settings, not from the code", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const rules = { ...RULES, priceChangeNoticeDays: 30 };
    await applyCataloguePrices(db(), {
      now: nine("2027-03-10"),
      catalogue: weeklyAt(99),
      addOns: ADD_ONS,
      rules,
      mailContext: MAIL_CONTEXT,
    });
    // 30 days from March 10 is April 9: May 1 (with 14 days' notice it would be April 1).
    expect(await planRow(plan.id)).toMatchObject({ pending_price_from: "2027-05-01" });
    await bill({ db: db(), now: nine("2027-04-01"), rules, catalogue: weeklyAt(99), mailContext: MAIL_CONTEXT });
    expect(await invoiceOf(plan.id, "2027-04-01")).toMatchObject({ total_cents: 8900 });
  });

  it("bills a plan whose catalogue plan was deleted at its stored price, and the Billing tab lists it", async () => {
    const plan = await createPlan({ weekdays: [2], start_date: "2027-01-04" }, db());
    await bill({ db: db(), mailContext: MAIL_CONTEXT });
    const april = await bill({
      db: db(),
      now: nine("2027-04-01"),
      catalogue: withoutWeekly,
      mailContext: MAIL_CONTEXT,
    });
    expect(april.unpriced).toBe(0);
    expect(await invoiceOf(plan.id, "2027-04-01")).toMatchObject({ total_cents: 8900 });
    expect(await planRow(plan.id)).toMatchObject({ price_cents: 8900, pending_price_cents: null });
    expect(await priceMails(plan.id)).toHaveLength(0);

    // The bundled catalogue has no "servicePlan.gone": the admin is warned about that plan only.
    const gone = await createPlan(
      { weekdays: [3], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.gone" },
      db(),
    );
    await db()
      .updateTable("customer_plans")
      .set({ price_cents: 7000, add_on_cents: 0 })
      .where("id", "=", gone.id)
      .execute();
    // A cancelled plan of a deleted catalogue plan is no longer billed: not listed.
    const cancelled = await createPlan(
      { weekdays: [4], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.aaa-gone" },
      db(),
    );
    await db()
      .updateTable("customer_plans")
      .set({ status: "cancelled", cancelled_at: new Date(), last_visit_date: "2027-03-31" })
      .where("id", "=", cancelled.id)
      .execute();
    const tab = await loadBillingTab(new URL("http://localhost/admin-dashboard/billing"), nine("2027-04-02"));
    expect(tab.outsideCatalogue.count).toBe(1);
    expect(tab.outsideCatalogue.plans).toEqual([
      expect.objectContaining({ customerId: gone.customer_id, plan: "Weekly Swift Service", price: "$70.00/month" }),
    ]);
    // Another deleted plan sorting after every catalogue id: the index walk reaches it too.
    const last = await createPlan(
      { weekdays: [5], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.zzz-gone" },
      db(),
    );
    const again = await loadBillingTab(new URL("http://localhost/admin-dashboard/billing"), nine("2027-04-02"));
    expect(again.outsideCatalogue.count).toBe(2);
    expect(again.outsideCatalogue.plans.map((row) => row.customerId).sort()).toEqual(
      [gone.customer_id, last.customer_id].sort(),
    );
  });

  it("a plan with no price and no catalogue plan is left unbilled and counted, never billed at zero", async () => {
    const plan = await createPlan(
      { weekdays: [2], start_date: "2027-01-04", catalogue_plan_id: "servicePlan.gone" },
      db(),
    );
    const result = await bill({ db: db(), mailContext: MAIL_CONTEXT });
    expect(result.unpriced).toBeGreaterThanOrEqual(1);
    expect(await invoiceOf(plan.id, "2027-03-01")).toBeUndefined();
    expect(await planRow(plan.id)).toMatchObject({ price_cents: null });
  });
});

describe("the price is stored when a plan starts or changes, and shown", () => {
  it("starts at the catalogue's price, and a change re-prices it and drops a new price waiting", async () => {
    const { plan, admin, customer } = await customerWithTuesdayPlan(db());
    // The bundled catalogue: weekly $89, the multi-dog add-on $15 for 2 dogs.
    expect(plan).toMatchObject({ price_cents: 8900, add_on_cents: 1500, pending_price_cents: null });
    await db()
      .updateTable("customer_plans")
      .set({ pending_price_cents: 9900, pending_add_on_cents: 1500, pending_price_from: "2027-04-01" })
      .where("id", "=", plan.id)
      .execute();
    expect(priceForMonth(await planRow(plan.id), "2027-03-01")).toEqual({ priceCents: 8900, addOnCents: 1500 });
    expect(priceForMonth(await planRow(plan.id), "2027-04-01")).toEqual({ priceCents: 9900, addOnCents: 1500 });

    const adminPage = await loadAdminPlan(customer.id, PLAN_TEST_MONDAY);
    expect(adminPage.plan?.price).toBe("$104/month");
    expect(adminPage.plan?.newPrice).toBe("New price from April 1, 2027: $114/month");
    const yourPlan = await loadYourPlan(
      { id: customer.id, fullName: "Casey Customer" },
      new URL("http://localhost/customer-dashboard/plan"),
      PLAN_TEST_MONDAY,
    );
    expect(yourPlan.plan?.newPrice).toBe("New price from April 1, 2027: $114/month");

    const changed = await changePlan(db(), {
      planId: plan.id,
      customerId: customer.id,
      cataloguePlan: { _id: "servicePlan.weekly", name: "Weekly Swift Service", visitsPerWeek: 1 },
      weekdays: [3],
      dogCount: 1,
      yardSize: "medium",
      fromDate: "2027-03-03",
      notes: null,
      actor: { id: admin.id, isAdmin: true },
      now: PLAN_TEST_MONDAY,
    });
    expect(changed).toMatchObject({ price_cents: 8900, add_on_cents: 0, pending_price_cents: null });
    expect((await loadAdminPlan(customer.id, PLAN_TEST_MONDAY)).plan?.newPrice).toBeNull();
  });
});
