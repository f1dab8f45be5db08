import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { MAIL_CONTEXT, insertOpenInvoice } from "../helpers/billing-fixtures";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { clearMoney } from "../helpers/ledger";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { perVisitCents } from "~/features/billing/billing-rules";
import { loadLedgerMonth } from "~/features/billing/ledger-export.server";
import { recordPayment, recordRefund } from "~/features/billing/payments.server";
import { reportCsv } from "~/features/reports/report-csv.server";
import type { ReportTable } from "~/features/reports/report-definitions";
import { refreshReports } from "~/features/reports/report-refresh.server";
import { loadReportTable, parseReportRange } from "~/features/reports/report-tables.server";
import { cellText } from "~/features/reports/report-view";
import * as csvRoute from "~/routes/admin-dashboard.reports.csv.$table";
import * as operationsPage from "~/routes/admin-dashboard.reports._index";
import * as moneyPage from "~/routes/admin-dashboard.reports.money";

/**
 * The Reports tab (issue 38 item 1, docs/decisions/130) against hand-computed fixtures: four
 * customers over January to April 2027 (the 52/12 rule, a plan changed mid-month, a plan made
 * cheaper, a cancellation and a reactivation), an invoice, a payment, a refund with its credit
 * note, visits and failed charges; then the CSV, and who may read what.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const NOW = new Date("2027-04-15T19:00:00Z");
const TODAY = "2027-04-15";
const RANGE = { from: "2027-01-01", to: "2027-04-01" };

let owner: TestUser;
let office: TestUser;
let technician: TestUser;
const customers: Record<string, TestUser> = {};

async function plan(
  customer: TestUser,
  values: { start: string; cents: number; cancelledAt?: string; reason?: "price" | "moved" },
) {
  return (
    await db()
      .insertInto("customer_plans")
      .values({
        customer_id: customer.id,
        catalogue_plan_id: "plan-weekly",
        catalogue_plan_name: "Weekly",
        visits_per_week: 1,
        weekdays: [2],
        dog_count: 1,
        yard_size: "small",
        start_date: values.start,
        status: values.cancelledAt ? "cancelled" : "active",
        cancelled_at: values.cancelledAt ?? null,
        last_visit_date: values.cancelledAt ? values.cancelledAt.slice(0, 10) : null,
        cancel_reason: values.reason ?? null,
        price_cents: values.cents,
        add_on_cents: 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

const change = (planId: string, fromDay: string, oldCents: number) =>
  db()
    .insertInto("plan_changes")
    .values({ plan_id: planId, from_day: fromDay, old_weekdays: [2], old_monthly_cents: oldCents })
    .execute();

async function visit(customer: TestUser, day: string, values: Record<string, unknown>) {
  return (
    await db()
      .insertInto("services")
      .values({
        customer_id: customer.id,
        service_type: "Weekly Service",
        service_date: new Date(`${day}T17:00:00Z`),
        ...values,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  owner = await createUser(db(), { role: "owner", fullName: "Oscar Owner" });
  office = await createUser(db(), { role: "office", fullName: "Olive Office" });
  technician = await createUser(db(), { role: "technician", fullName: "Tess Technician" });
  for (const name of ["alice", "bob", "carol", "dan"]) customers[name] = await createUser(db(), { fullName: name });
  const { alice, bob, carol, dan } = customers;
  // Alice: weekly, $100.00 a month from January: 52/12 visits a month, never 4 × $23.08.
  await plan(alice, { start: "2027-01-10", cents: 10000 });
  // Bob: $80.00 from January, changed on 15 February to $120.00 (the change kept the old price).
  await change(await plan(bob, { start: "2027-01-05", cents: 12000 }), "2027-02-15", 8000);
  // Carol: $60.00 from January, cancelled 10 February (price); back on 20 March at $70.00.
  await plan(carol, { start: "2027-01-03", cents: 6000, cancelledAt: "2027-02-10T20:00:00Z", reason: "price" });
  await plan(carol, { start: "2027-03-20", cents: 7000 });
  // Dan: $110.00 from February, down to $90.00 from 1 April.
  await change(await plan(dan, { start: "2027-02-01", cents: 9000 }), "2027-04-01", 11000);

  // Money: February $89.00 to Alice, open; March $45.00 to Bob, paid, $5.00 refunded (a credit note).
  await clearMoney(db());
  const february = await insertOpenInvoice(db(), alice.id, 8900, {
    period_month: "2027-02-01",
    issued_on: "2027-02-01",
    due_on: "2027-02-10",
  });
  const march = await insertOpenInvoice(db(), bob.id, 4500, {
    period_month: "2027-03-01",
    issued_on: "2027-03-01",
    due_on: "2027-03-31",
  });
  await recordPayment(db(), {
    invoiceId: march.id,
    method: "check",
    amountCents: 4500,
    paidOn: "2027-03-03",
    note: null,
    recordedBy: owner.id,
    idempotencyKey: "reports-pay",
    now: new Date("2027-03-03T18:00:00Z"),
    context: MAIL_CONTEXT,
  });
  const payment = await db().selectFrom("payments").select("id").executeTakeFirstOrThrow();
  await recordRefund(db(), {
    invoiceId: march.id,
    paymentId: payment.id,
    amountCents: 500,
    refundedOn: "2027-03-04",
    note: "Late",
    recordedBy: owner.id,
    idempotencyKey: "reports-refund",
    now: new Date("2027-03-04T18:00:00Z"),
  });
  // Both invoices' first charge failed in March; March's was paid since (recovered).
  await db()
    .updateTable("invoices")
    .set({ first_failed_at: new Date("2027-03-02T18:00:00Z"), last_failed_at: new Date("2027-03-02T18:00:00Z") })
    .where("id", "in", [february.id, march.id])
    .execute();

  // Visits of March: two completed (one a return visit), one missed at a locked gate, one skipped.
  const missed = await visit(alice, "2027-03-09", { status: "missed", missed_reason: "locked_gate" });
  await visit(alice, "2027-03-02", { status: "completed", completed_at: new Date("2027-03-02T18:00:00Z") });
  await visit(alice, "2027-03-10", {
    status: "completed",
    completed_at: new Date("2027-03-10T18:00:00Z"),
    return_visit_of: missed,
  });
  await visit(bob, "2027-03-16", { status: "skipped", skip_reason: "customer" });
  // A visit still to come counts nowhere.
  await visit(bob, "2027-04-20", {});

  await refreshReports(db(), { now: NOW });
});

const texts = (table: ReportTable) => table.rows.map((row) => row.map(cellText));
const load = (id: Parameters<typeof loadReportTable>[1]) => loadReportTable(db(), id, RANGE, TODAY);

describe("recurring revenue", () => {
  it("sums the plans' monthly prices at each month's end, and splits each month's movement", async () => {
    // The weekly plan counts its monthly price: 52/12 visits, not 4 visits at the visit's rate.
    expect(4 * perVisitCents(10000, 1)).toBe(9232);
    expect(texts(await load("revenue"))).toEqual([
      // Month, MRR, paying, new, expansion, contraction, churned, reactivated, net
      ["Jan 2027", "$240.00", "3", "$240.00", "$0.00", "$0.00", "$0.00", "$0.00", "$240.00"],
      ["Feb 2027", "$330.00", "3", "$110.00", "$40.00", "$0.00", "−$60.00", "$0.00", "$90.00"],
      ["Mar 2027", "$400.00", "4", "$0.00", "$0.00", "$0.00", "$0.00", "$70.00", "$70.00"],
      ["Apr 2027", "$380.00", "4", "$0.00", "$0.00", "−$20.00", "$0.00", "$0.00", "−$20.00"],
    ]);
  });
});

describe("customers", () => {
  it("counts active, new and lost customers, cancellations by reason and retention by sign-up month", async () => {
    expect(texts(await load("customers"))).toEqual([
      ["Jan 2027", "3", "3", "0"],
      ["Feb 2027", "3", "1", "1"],
      ["Mar 2027", "4", "0", "0"],
      ["Apr 2027", "4", "0", "0"],
    ]);
    // Moved, price, service, no longer needed, other, not given, all.
    expect(texts(await load("cancellations"))).toEqual([
      ["Jan 2027", "0", "0", "0", "0", "0", "0", "0"],
      ["Feb 2027", "0", "1", "0", "0", "0", "0", "1"],
      ["Mar 2027", "0", "0", "0", "0", "0", "0", "0"],
      ["Apr 2027", "0", "0", "0", "0", "0", "0", "0"],
    ]);
    expect(texts(await load("retention"))).toEqual([
      // January's three: Carol gone in February, back in March.
      ["Jan 2027", "3", "100.0%", "66.7%", "100.0%", "100.0%"],
      ["Feb 2027", "1", "100.0%", "100.0%", "100.0%", ""],
    ]);
  });
});

describe("money", () => {
  it("invoiced, credited, collected, written off and still owed, to the cent the Billing tab's reconciliation", async () => {
    expect(texts(await load("money"))).toEqual([
      ["Jan 2027", "$0.00", "$0.00", "$0.00", "$0.00", "$0.00"],
      ["Feb 2027", "$89.00", "$0.00", "$0.00", "$0.00", "$89.00"],
      // $45.00 paid less the $5.00 refund; the refund's credit note is credited.
      ["Mar 2027", "$45.00", "$5.00", "$40.00", "$0.00", "$89.00"],
      ["Apr 2027", "$0.00", "$0.00", "$0.00", "$0.00", "$89.00"],
    ]);
    expect((await loadLedgerMonth(db(), "2027-03-01")).closing).toBe("$89.00");
  });

  it("ages what is owed by days past due, and counts failed payments and those recovered", async () => {
    // February's invoice was due 10 February: 64 days late on 15 April.
    expect(texts(await load("aging"))).toEqual([
      ["0–30 days", "0", "$0.00", "0.0%"],
      ["31–60 days", "0", "$0.00", "0.0%"],
      ["61–90 days", "1", "$89.00", "100.0%"],
      ["Over 90 days", "0", "$0.00", "0.0%"],
      ["All", "1", "$89.00", "100.0%"],
    ]);
    expect(texts(await load("failed-payments"))[2]).toEqual(["Mar 2027", "2", "$134.00", "1", "$45.00", "50.0%"]);
  });
});

describe("visits", () => {
  it("counts completed, skipped and missed visits by reason, and return visits", async () => {
    const table = await load("visits");
    expect(table.columns).toEqual([
      "Month",
      "Completed",
      "Skipped: Skipped by customer",
      "Skipped: Paused by customer",
      "Skipped: Payment overdue",
      "Skipped: Skipped by admin",
      "Missed: Locked gate",
      "Missed: Dog in yard",
      "Missed: Weather",
      "Missed: Other",
      "Return visits completed",
    ]);
    expect(texts(table)[2]).toEqual(["Mar 2027", "2", "1", "0", "0", "0", "1", "0", "0", "0", "1"]);
    expect(texts(table)[3]).toEqual(["Apr 2027", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"]);
  });
});

describe("the range", () => {
  it("defaults to the twelve months up to this one and refuses a bad or reversed range", () => {
    const parse = (query: string) => parseReportRange(new URL(`http://x/r?${query}`), TODAY);
    expect(parse("")).toEqual({ range: { from: "2026-05-01", to: "2027-04-01" }, error: null });
    expect(parse("from=2027-01&to=2027-03")).toEqual({ range: { from: "2027-01-01", to: "2027-03-01" }, error: null });
    expect(parse("from=2027-13").error).toBe("Enter the months as YYYY-MM (for example 2027-03).");
    expect(parse("from=2027-03&to=2027-01").error).toBe("The first month must come before the last.");
    expect(parse("from=2010-01&to=2027-01").error).toBe("Show at most five years at a time.");
  });
});

describe("CSV", () => {
  it("writes the table's numbers and neutralises every text cell a spreadsheet would run", () => {
    const csv = reportCsv({
      id: "customers",
      title: "Customers",
      columns: ["Month", "=Formula"],
      rows: [
        [
          { kind: "text", value: '=HYPERLINK("http://evil.example")' },
          { kind: "cents", value: -2054 },
        ],
        [
          { kind: "text", value: "+1" },
          { kind: "count", value: 3 },
        ],
        [
          { kind: "text", value: "-2" },
          { kind: "percent", value: 6667 },
        ],
        [
          { kind: "text", value: "@SUM(A1)" },
          { kind: "text", value: "plain, with a comma" },
        ],
      ],
    });
    expect(csv).toBe(
      [
        "Month,'=Formula",
        '"\'=HYPERLINK(""http://evil.example"")",-20.54',
        "'+1,3",
        "'-2,66.67",
        '\'@SUM(A1),"plain, with a comma"',
        "",
      ].join("\r\n"),
    );
  });

  it("downloads a report's table for the owner, with the range in its name", async () => {
    const response = await callRoute(csvRoute.loader, "/admin-dashboard/reports/csv/revenue?from=2027-01&to=2027-04", {
      cookie: await sessionCookieFor(owner.id),
      params: { table: "revenue" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="revenue-2027-01-to-2027-04.csv"');
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe(
      "Month,Recurring revenue,Paying customers,New,Expansion,Contraction,Churned,Reactivated,Net change",
    );
    expect(lines[2]).toBe("Feb 2027,330.00,3,110.00,40.00,0.00,-60.00,0.00,90.00");
    expect(lines).toHaveLength(6);
  });

  it("answers a bad range with 400 and an unknown table with 404, never a 500", async () => {
    const cookie = await sessionCookieFor(owner.id);
    const bad = await callRoute(csvRoute.loader, "/admin-dashboard/reports/csv/money?from=nope", {
      cookie,
      params: { table: "money" },
    });
    expect(bad.status).toBe(400);
    const unknown = await callRoute(csvRoute.loader, "/admin-dashboard/reports/csv/secrets", {
      cookie,
      params: { table: "secrets" },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("who may read what (decision 130)", () => {
  const refused = async (response: Response) => {
    expect(response.status).toBe(302);
    expect(locationOf(response)).toMatch(/^\/admin-dashboard/);
    expect((await toastOf(response))?.message).toBe("Access Denied");
    // Nothing leaked: no figure, no table.
    expect(await response.text()).not.toMatch(/\$\d|Recurring revenue/);
  };

  it("the office reads customers and visits but no money: the money page and money CSVs are refused", async () => {
    const cookie = await sessionCookieFor(office.id);
    const page = await callRoute(operationsPage.loader, "/admin-dashboard/reports?from=2027-01&to=2027-04", { cookie });
    expect(page.status).toBe(200);
    const data = (await page.json()) as { mayReadMoney: boolean; tables: ReportTable[] };
    expect(data.mayReadMoney).toBe(false);
    expect(data.tables.map((table) => table.id)).toEqual(["customers", "cancellations", "retention", "visits"]);
    expect(JSON.stringify(data)).not.toMatch(/"cents"/);
    await refused(await callRoute(moneyPage.loader, "/admin-dashboard/reports/money", { cookie }));
    for (const table of ["revenue", "money", "aging", "failed-payments"]) {
      await refused(
        await callRoute(csvRoute.loader, `/admin-dashboard/reports/csv/${table}`, { cookie, params: { table } }),
      );
    }
    const visits = await callRoute(csvRoute.loader, "/admin-dashboard/reports/csv/visits", {
      cookie,
      params: { table: "visits" },
    });
    expect(visits.status).toBe(200);
  });

  it("a technician reads no report at all", async () => {
    const cookie = await sessionCookieFor(technician.id);
    await refused(await callRoute(operationsPage.loader, "/admin-dashboard/reports", { cookie }));
    await refused(await callRoute(moneyPage.loader, "/admin-dashboard/reports/money", { cookie }));
    for (const table of ["revenue", "visits", "secrets"]) {
      await refused(
        await callRoute(csvRoute.loader, `/admin-dashboard/reports/csv/${table}`, { cookie, params: { table } }),
      );
    }
  });

  it("the owner reads the money page", async () => {
    const response = await callRoute(moneyPage.loader, "/admin-dashboard/reports/money?from=2027-01&to=2027-04", {
      cookie: await sessionCookieFor(owner.id),
    });
    expect(response.status).toBe(200);
    const data = (await response.json()) as { tables: ReportTable[]; asOf: string | null };
    expect(data.tables.map((table) => table.id)).toEqual(["revenue", "money", "aging", "failed-payments"]);
    expect(data.asOf).toBe(NOW.toISOString());
  });
});
