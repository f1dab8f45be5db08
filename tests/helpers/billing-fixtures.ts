import type { Insertable, Kysely } from "kysely";
import type { Database, MissedReason, SkipReason, VisitStatus, VisitType } from "../../db/schema";
import { runBilling, type BillingRunOptions, type BillingRunRules } from "~/features/billing/billing-run.server";
import type { MailContext } from "~/features/billing/payment-recovery-emails.server";
import type { AddOn, PlanCard, PlanRules } from "~/content/types";
import { changePlan } from "~/features/plans/plan-changes.server";
import { createUser } from "./factories";

/**
 * What the billing tests share (the run's own tests, the ledger's and its property tests): the
 * owner's rules, a catalogue with its prices, plans and visits as the plan code stores them.
 */
/** Monday 2027-03-01, 09:00 in Las Vegas (Pacific standard time). */
export const MARCH_1 = new Date("2027-03-01T17:00:00Z");
export const RULES: BillingRunRules = {
  billingDay: 1,
  prorateFirstMonth: true,
  creditSkippedVisits: true,
  graceDays: 7,
  priceChangeNoticeDays: 14,
  invoiceFooter: "Thank you.",
  changeNoticeHours: 24,
};
const card = (fields: Partial<PlanCard> & Pick<PlanCard, "_id" | "slug" | "name" | "kind" | "price">): PlanCard =>
  ({ visitsPerWeek: null, shortDescription: "x", features: [], popular: false, order: 1, ...fields }) as PlanCard;
export const CATALOGUE: PlanCard[] = [
  card({
    _id: "servicePlan.weekly",
    slug: "weekly",
    name: "Weekly Swift Service",
    kind: "subscription",
    visitsPerWeek: 1,
    price: { amount: 89, unit: "month" },
  }),
  card({
    _id: "servicePlan.twice-weekly",
    slug: "twice-weekly",
    name: "Twice-Weekly Swift Service",
    kind: "subscription",
    visitsPerWeek: 2,
    price: { amount: 159, unit: "month" },
  }),
  card({
    _id: "servicePlan.desert-dash",
    slug: "desert-dash",
    name: "Swift Dash",
    kind: "one-time",
    price: { amount: 85, unit: "one-time" },
  }),
  card({
    _id: "servicePlan.yard-refresh",
    slug: "yard-refresh",
    name: "Yard Refresh Pro",
    kind: "one-time",
    price: { amount: 75, unit: "one-time" },
  }),
];
export const ADD_ONS = [
  {
    _id: "addOn.multi-dog",
    name: "Multi-Dog Add-On",
    slug: "multi-dog",
    tiers: [{ _key: "a", minDogs: 2, monthlyAmount: 15 }],
  },
] as unknown as AddOn[];

export const bill = (options: Partial<BillingRunOptions> = {}) =>
  runBilling({ now: MARCH_1, rules: RULES, catalogue: CATALOGUE, addOns: ADD_ONS, ...options });

let customerNumber = 0;
export async function createCustomer(handle: Kysely<Database>): Promise<string> {
  customerNumber += 1;
  const row = await handle
    .insertInto("users")
    .values({ email: `billing-${customerNumber}@example.com` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createPlan(
  values: { weekdays: number[]; start_date: string; catalogue_plan_id?: string; dog_count?: number },
  handle: Kysely<Database>,
) {
  const customerId = await createCustomer(handle);
  return handle
    .insertInto("customer_plans")
    .values({
      customer_id: customerId,
      catalogue_plan_id: values.catalogue_plan_id ?? "servicePlan.weekly",
      catalogue_plan_name:
        values.catalogue_plan_id === "servicePlan.twice-weekly" ? "Twice-Weekly Swift Service" : "Weekly Swift Service",
      visits_per_week: values.weekdays.length,
      weekdays: values.weekdays,
      dog_count: values.dog_count ?? 1,
      yard_size: "medium",
      start_date: values.start_date,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** 08:00 in Las Vegas on a day of February or early March 2027 (PST). */
export const at8 = (day: string) => new Date(`${day}T16:00:00Z`);
export const hoursBefore = (date: Date, hours: number) => new Date(date.getTime() - hours * 3_600_000);

export async function addVisit(
  handle: Kysely<Database>,
  values: {
    customerId: string;
    planId?: string;
    day: string;
    type?: VisitType;
    status: VisitStatus;
    skipReason?: SkipReason;
    missedReason?: MissedReason;
    /** When it was skipped: a status event at that time. */
    skippedAt?: Date;
    createdAt?: Date;
  },
) {
  const visit = await handle
    .insertInto("services")
    .values({
      customer_id: values.customerId,
      service_type: values.type ?? "Weekly Service",
      service_date: at8(values.day),
      status: values.status,
      skip_reason: values.skipReason ?? null,
      missed_reason: values.missedReason ?? null,
      plan_id: values.planId ?? null,
      plan_slot: values.planId ? values.day : null,
      completed_at: values.status === "completed" ? at8(values.day) : null,
      created_at: values.createdAt ?? hoursBefore(at8(values.day), 24 * 20),
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  if (values.skippedAt) {
    await handle
      .insertInto("service_events")
      .values({
        service_id: visit.id,
        kind: "status",
        from_status: "scheduled",
        to_status: "skipped",
        created_at: values.skippedAt,
      } as never)
      .execute();
  }
  return visit.id;
}

/** The owner's words the billing e-mails use, instead of Sanity's. */
export const MAIL_CONTEXT: MailContext = {
  businessName: "Swift Scoop",
  phone: "(702) 555-0100",
  ownerEmail: "owner@example.com",
  siteUrl: "http://localhost:3000",
};

let invoiceCount = 0;

/**
 * An open invoice of `totalCents` for the customer, numbered in the year it is issued (by default
 * issued and due 2028-03-01, each in a month of its own); `values` sets any other column. No lines.
 */
export async function insertOpenInvoice(
  db: Kysely<Database>,
  customerId: string,
  totalCents: number,
  values: Partial<Insertable<Database["invoices"]>> = {},
) {
  invoiceCount += 1;
  const issuedOn = (values.issued_on as string | undefined) ?? "2028-03-01";
  return db
    .insertInto("invoices")
    .values({
      number: `${issuedOn.slice(0, 4)}-${String(invoiceCount).padStart(6, "0")}`,
      customer_id: customerId,
      plan_id: null,
      period_month: new Date(Date.UTC(2010, invoiceCount, 1)).toISOString().slice(0, 10),
      status: "open",
      issued_on: issuedOn,
      due_on: issuedOn,
      total_cents: totalCents,
      ...values,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An open invoice of `totalCents` with one line of its total (a month of weekly service); its id. */
export async function createOpenInvoice(db: Kysely<Database>, customerId: string, totalCents = 8900) {
  const invoice = await insertOpenInvoice(db, customerId, totalCents);
  await db
    .insertInto("invoice_lines")
    .values({ invoice_id: invoice.id, kind: "plan_month", description: "Weekly service", amount_cents: totalCents })
    .execute();
  return invoice.id;
}

/** The bundled catalogue's subscriptions as a plan change names them (changePlan prices them from it). */
export const WEEKLY_CHOICE = { _id: "servicePlan.weekly", name: "Weekly Swift Service", visitsPerWeek: 1 };
export const TWICE_CHOICE = { _id: "servicePlan.twice-weekly", name: "Twice-Weekly Swift Service", visitsPerWeek: 2 };
export const THRICE_CHOICE = { _id: "servicePlan.thrice-weekly", name: "Triple Swift Service", visitsPerWeek: 3 };

/** 09:00 in Las Vegas on a day before 14 March 2027 (PST). */
export const nine = (day: string) => new Date(`${day}T17:00:00Z`);

/** The owner's plan rules the plan-change and cancellation tests use, instead of Sanity's. */
export const PLAN_RULES: PlanRules = {
  changeNoticeHours: 24,
  longestPauseDays: 90,
  horizonDays: 28,
  firstVisitTime: "08:00",
  closedDays: [],
};

/** A plan change made by an owner (a new staff user each time), for one dog and a medium yard. */
export async function changePlanByOwner(
  db: Kysely<Database>,
  plan: { id: string; customer_id: string },
  to: { _id: string; name: string; visitsPerWeek: number },
  change: { weekdays: number[]; fromDate: string; now: Date; billingDay?: number; rules?: PlanRules },
) {
  const owner = await createUser(db, { admin: true, fullName: "Owner" });
  return changePlan(db, {
    planId: plan.id,
    customerId: plan.customer_id,
    cataloguePlan: to,
    weekdays: change.weekdays,
    dogCount: 1,
    yardSize: "medium",
    fromDate: change.fromDate,
    notes: null,
    actor: { id: owner.id, isAdmin: true },
    now: change.now,
    rules: change.rules,
    billingDay: change.billingDay ?? 1,
  });
}
