import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { MAIL_CONTEXT, insertOpenInvoice } from "../helpers/billing-fixtures";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { clearMoney } from "../helpers/ledger";
import { callRoute } from "../helpers/route-calls";
import { ledgerCsvStream, loadLedgerMonth, safeCell } from "~/features/billing/ledger-export.server";
import { recordPayment, recordRefund } from "~/features/billing/payments.server";
import * as billingTab from "~/routes/admin-dashboard.billing._index";
import * as ledgerCsv from "~/routes/admin-dashboard.billing.ledger[.csv]";

/**
 * The accountant's export and the month's roll-forward (issue 34 item 11, docs/decisions/113),
 * through the route and on a real database.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let customer: TestUser;
let plotter: TestUser;
const cookies: Record<string, string> = {};
beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  customer = await createUser(db(), { fullName: "Carla Customer" });
  // A name a spreadsheet would run as a formula.
  plotter = await createUser(db(), { fullName: '=HYPERLINK("http://evil.example","x")' });
  cookies.admin = await sessionCookieFor(admin.id);
  cookies.customer = await sessionCookieFor(customer.id);
});

const invoice = async (customerId: string, total: number, issuedOn: string) =>
  (
    await insertOpenInvoice(db(), customerId, total, {
      period_month: `${issuedOn.slice(0, 7)}-01`,
      issued_on: issuedOn,
    })
  ).id;

beforeEach(async () => {
  await clearMoney(db());
  // February: 89.00 invoiced, unpaid. March: 45.00 invoiced and paid, 5.00 refunded; the plotter's 12.34.
  await invoice(customer.id, 8900, "2027-02-01");
  const march = await invoice(customer.id, 4500, "2027-03-01");
  await invoice(plotter.id, 1234, "2027-03-10");
  await recordPayment(db(), {
    invoiceId: march,
    method: "check",
    amountCents: 4500,
    paidOn: "2027-03-03",
    note: null,
    recordedBy: admin.id,
    idempotencyKey: "export-pay",
    now: new Date("2027-03-03T18:00:00Z"),
    context: MAIL_CONTEXT,
  });
  const payment = await db().selectFrom("payments").select("id").executeTakeFirstOrThrow();
  await recordRefund(db(), {
    invoiceId: march,
    paymentId: payment.id,
    amountCents: 500,
    refundedOn: "2027-03-04",
    note: "Late",
    recordedBy: admin.id,
    idempotencyKey: "export-refund",
    now: new Date("2027-03-04T18:00:00Z"),
  });
});

const csvOf = async (url: string, cookie = cookies.admin) => callRoute(ledgerCsv.loader, url, { cookie });

describe("the ledger export", () => {
  it("streams the range's entries as CSV, neutralising cells a spreadsheet would run", async () => {
    const response = await csvOf("/admin-dashboard/billing/ledger.csv?from=2027-03-01&to=2027-03-31");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      'attachment; filename="ledger-2027-03-01-to-2027-03-31.csv"',
    );
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines).toEqual([
      "Date,Customer,Type,Document,Amount,Method,Stripe id",
      `2027-03-01,Carla Customer <${customer.email}>,Invoice,2027-000002,45.00,,`,
      `2027-03-03,Carla Customer <${customer.email}>,Payment,2027-000002,-45.00,Check,`,
      `2027-03-04,Carla Customer <${customer.email}>,Refund,2027-000002,5.00,Check,`,
      `2027-03-04,Carla Customer <${customer.email}>,Credit note,CN-2027-0000001,-5.00,,`,
      `2027-03-10,"'=HYPERLINK(""http://evil.example"",""x"") <${plotter.email}>",Invoice,2027-000003,12.34,,`,
    ]);
  });

  it("reads every entry once across batch edges", async () => {
    const stream = ledgerCsvStream(db(), { from: "2027-01-01", until: "2027-04-01" }, { batchSize: 2 });
    const text = await new Response(stream).text();
    const rows = text.trimEnd().split("\r\n").slice(1);
    const { rows: count } = await sql<{ n: string }>`select count(*) as n from ledger_entries`.execute(db());
    expect(rows).toHaveLength(Number(count[0].n));
    expect(new Set(rows).size).toBe(rows.length);
  });

  it("refuses a bad range with 400, and anyone but an admin", async () => {
    for (const query of [
      "from=2027-02-30&to=2027-03-01",
      "from=2027-03-02&to=2027-03-01",
      "from=2020-01-01&to=2027-01-01",
      "from=x",
    ]) {
      const response = await csvOf(`/admin-dashboard/billing/ledger.csv?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get("Content-Type")).toContain("text/plain");
    }
    const refused = await csvOf("/admin-dashboard/billing/ledger.csv", cookies.customer).catch((error) => error);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).not.toBe(200);
    expect(await (refused as Response).text()).not.toContain("Invoice");
  });

  it("neutralises =, +, -, @, tab and return first, and nothing else", () => {
    expect(["=1", "+1", "-1", "@a", "\tx", "\rx", "a=b", ""].map((cell) => safeCell(cell))).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@a",
      "'\tx",
      "'\rx",
      "a=b",
      "",
    ]);
  });
});

describe("the month's roll-forward", () => {
  it("adds up to the cent: what was owed, plus the month's entries, is what is owed at its end", async () => {
    const march = await loadLedgerMonth(db(), "2027-03-01");
    expect(march.opening).toBe("$89.00");
    expect(march.rows).toEqual([
      { label: "Invoiced", amount: "$57.34" },
      { label: "Voided", amount: "$0.00" },
      { label: "Credit notes", amount: "−$5.00" },
      { label: "Payments", amount: "−$45.00" },
      { label: "Refunds paid out", amount: "$5.00" },
      { label: "Payments reversed and disputes lost", amount: "$0.00" },
      { label: "Written off", amount: "$0.00" },
      { label: "Tips for staff", amount: "$0.00" },
      { label: "Tips paid by card", amount: "$0.00" },
      { label: "Tips voided", amount: "$0.00" },
    ]);
    // 89.00 + 57.34 - 5.00 - 45.00 + 5.00 = 101.34: the two open invoices, independently summed.
    expect(march.closing).toBe("$101.34");
    const { rows } = await sql<{ owed: string }>`
      select sum(total_cents - paid_cents) as owed from invoices where status = 'open'`.execute(db());
    expect(Number(rows[0].owed)).toBe(10134);
  });

  it("is on the admin's Billing tab, for the month asked", async () => {
    const response = await callRoute(billingTab.loader, "/admin-dashboard/billing?ledger=2027-03", {
      cookie: cookies.admin,
    });
    expect(response.status).toBe(200);
    const data = await response.json();
    expect(data.ledger).toMatchObject({
      month: "March 2027",
      opening: "$89.00",
      closing: "$101.34",
      previous: "2027-02",
    });
    // A month that is no month falls back to this one, without an error.
    const fallback = await callRoute(billingTab.loader, "/admin-dashboard/billing?ledger=2027-13", {
      cookie: cookies.admin,
    });
    expect(fallback.status).toBe(200);
  });
});
