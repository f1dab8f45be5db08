import { clearMoney, ledgerSum } from "../helpers/ledger";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import * as adminInvoice from "~/routes/admin-dashboard.billing.$invoiceId";
import * as billingTab from "~/routes/admin-dashboard.billing._index";
import * as adminCustomer from "~/routes/admin-dashboard.customers.$customerId";
import * as customerInvoice from "~/routes/customer-dashboard_.billing.$invoiceId";
import * as invoicePdf from "~/routes/customer-dashboard_.billing.$invoiceId_.pdf";
import * as customerBilling from "~/routes/customer-dashboard_.billing._index";

/**
 * The billing pages (issue 27 step 2, docs/decisions/102) through their routes: who may see and
 * do what (anonymous, customer A, customer B, admin), "Record payment" with its bad inputs and
 * double press, refunds bounded by what was paid, "Void", the printable invoice and its PDF.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const cookies: Record<string, string> = {};
let invoiceNumber = 0;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, fullName: "Ada Admin" });
  alice = await createUser(db(), { fullName: "Alice Able" });
  bob = await createUser(db(), { fullName: "Bob Baker" });
  cookies.admin = await sessionCookieFor(admin.id);
  cookies.alice = await sessionCookieFor(alice.id);
  cookies.bob = await sessionCookieFor(bob.id);
});

beforeEach(async () => {
  await clearMoney(db());
});

/** An open invoice of $89.00 for the customer, with one line. */
async function createInvoice(customerId: string, totalCents = 8900) {
  invoiceNumber += 1;
  const invoice = await db()
    .insertInto("invoices")
    .values({
      number: `2027-${String(invoiceNumber).padStart(6, "0")}`,
      customer_id: customerId,
      plan_id: null,
      // One invoice without a plan per customer and month: each test invoice its own month.
      period_month: new Date(Date.UTC(2020, invoiceNumber, 1)).toISOString().slice(0, 10),
      status: "open",
      issued_on: "2027-03-01",
      due_on: "2027-03-01",
      total_cents: totalCents,
      footer: "Thank you for choosing us.",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db()
    .insertInto("invoice_lines")
    .values({
      invoice_id: invoice.id,
      kind: "plan_month",
      description: "Weekly Swift Service, March 2027",
      amount_cents: totalCents,
    })
    .execute();
  return invoice.id;
}

const KEY = "6f1c1b8e-3c1a-4c59-9d3e-2f4a5b6c7d8e";
function recordPayment(invoiceId: string, form: Record<string, string> = {}, cookie: string | null = cookies.admin) {
  return callRoute(adminInvoice.action, `/admin-dashboard/billing/${invoiceId}`, {
    cookie: cookie ?? undefined,
    params: { invoiceId },
    form: {
      intent: "record-payment",
      method: "cash",
      amount: "89.00",
      paidOn: "2027-03-03",
      note: "",
      key: KEY,
      ...form,
    },
  });
}

const payments = () => db().selectFrom("payments").selectAll().execute();
const invoiceRow = (id: string) =>
  db().selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("billing authorization", () => {
  it("anonymous visitors go to sign in; customers are denied the admin pages and see only their own invoices", async () => {
    const aliceInvoice = await createInvoice(alice.id);
    const adminCalls = (cookie?: string) => [
      () => callRoute(billingTab.loader, "/admin-dashboard/billing", { cookie }),
      () =>
        callRoute(adminInvoice.loader, `/admin-dashboard/billing/${aliceInvoice}`, {
          cookie,
          params: { invoiceId: aliceInvoice },
        }),
      () => recordPayment(aliceInvoice, {}, cookie ?? null),
    ];
    for (const call of adminCalls(undefined)) {
      const response = await call();
      expect(response.status).toBe(302);
      expect(locationOf(response)).toMatch(/^\/auth/);
    }
    for (const call of adminCalls(cookies.alice)) {
      const response = await call();
      expect(response.status).toBe(302);
      expect(locationOf(response)).toBe("/customer-dashboard");
      expect((await toastOf(response))?.message).toBe("Access Denied");
    }
    const customerCalls = (cookie?: string) => [
      () => callRoute(customerBilling.loader, "/customer-dashboard/billing", { cookie }),
      () =>
        callRoute(customerInvoice.loader, `/customer-dashboard/billing/${aliceInvoice}`, {
          cookie,
          params: { invoiceId: aliceInvoice },
        }),
      () =>
        callRoute(invoicePdf.loader, `/customer-dashboard/billing/${aliceInvoice}/pdf`, {
          cookie,
          params: { invoiceId: aliceInvoice },
        }),
    ];
    for (const call of customerCalls(undefined)) {
      const response = await call();
      expect(response.status).toBe(302);
      expect(locationOf(response)).toMatch(/^\/auth/);
    }
    // Bob: his own (empty) billing page; Alice's invoice and PDF are 404, like a missing one.
    const [bobPage, bobInvoice, bobPdf] = await Promise.all(customerCalls(cookies.bob).map((call) => call()));
    expect(bobPage.status).toBe(200);
    expect((await bobPage.json()).invoices).toEqual([]);
    expect(bobInvoice.status).toBe(404);
    expect(bobPdf.status).toBe(404);
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const response = await callRoute(invoicePdf.loader, `/customer-dashboard/billing/${id}/pdf`, {
        cookie: cookies.alice,
        params: { invoiceId: id },
      });
      expect(response.status).toBe(404);
    }
    // Admin: every admin page; nothing was stored by the refused posts.
    expect((await adminCalls(cookies.admin)[0]()).status).toBe(200);
    expect((await adminCalls(cookies.admin)[1]()).status).toBe(200);
    expect(await payments()).toEqual([]);
  });
});

describe("the customer's billing pages", () => {
  it("show the open balance and invoices, a printable invoice and its PDF, streamed", async () => {
    const id = await createInvoice(alice.id);
    const page = await callRoute(customerBilling.loader, "/customer-dashboard/billing", { cookie: cookies.alice });
    const data = await page.json();
    expect(data.balance).toBe("$89.00");
    expect(data.invoices).toMatchObject([{ id, number: expect.stringMatching(/^2027-\d{6}$/), status: "Open" }]);
    const printable = await callRoute(customerInvoice.loader, `/customer-dashboard/billing/${id}`, {
      cookie: cookies.alice,
      params: { invoiceId: id },
    });
    const { invoice } = await printable.json();
    expect(invoice).toMatchObject({ total: "$89.00", balance: "$89.00", footer: "Thank you for choosing us." });
    expect(invoice.lines).toMatchObject([{ description: "Weekly Swift Service, March 2027", amount: "$89.00" }]);
    const pdf = await callRoute(invoicePdf.loader, `/customer-dashboard/billing/${id}/pdf`, {
      cookie: cookies.alice,
      params: { invoiceId: id },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.headers.get("Content-Disposition")).toMatch(/^attachment; filename="invoice-2027-\d{6}\.pdf"$/);
    expect(pdf.body).toBeInstanceOf(ReadableStream);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.subarray(-6).toString()).toContain("%%EOF");
  });
});

describe("the customer's Billing page in one round trip", () => {
  it("without invoices owes nothing; with several, lists them newest first and owes only the open ones", async () => {
    const empty = await (
      await callRoute(customerBilling.loader, "/customer-dashboard/billing", { cookie: cookies.bob })
    ).json();
    expect(empty).toMatchObject({ balance: "$0.00", owes: false, invoices: [] });

    const older = await createInvoice(bob.id, 1000);
    const newer = await createInvoice(bob.id, 2500);
    // Paid in cash: the payment is the ledger's entry (docs/decisions/113), the status the invoice's.
    await db()
      .insertInto("payments")
      .values({
        invoice_id: older,
        method: "cash",
        amount_cents: 1000,
        paid_on: "2027-03-02",
        idempotency_key: "older",
      })
      .execute();
    await db()
      .updateTable("invoices")
      .set({ status: "paid", paid_cents: 1000, paid_at: new Date() })
      .where("id", "=", older)
      .execute();
    const data = await (
      await callRoute(customerBilling.loader, "/customer-dashboard/billing", { cookie: cookies.bob })
    ).json();
    expect(data.balance).toBe("$25.00");
    expect(data.invoices.map((row: { id: string; status: string }) => [row.id, row.status])).toEqual([
      [newer, "Open"],
      [older, "Paid"],
    ]);
  });
});

describe("Record payment, Refund and Void", () => {
  it("a cash payment of the whole balance marks the invoice paid and clears the customer's balance", async () => {
    const id = await createInvoice(alice.id);
    const response = await recordPayment(id);
    expect(response.status).toBe(302);
    expect(locationOf(response)).toBe(`/admin-dashboard/billing/${id}`);
    expect((await toastOf(response))?.description).toBe("Payment recorded");
    expect(await payments()).toMatchObject([
      { invoice_id: id, method: "cash", amount_cents: 8900, paid_on: "2027-03-03", recorded_by: admin.id },
    ]);
    expect(await invoiceRow(id)).toMatchObject({ status: "paid", paid_cents: 8900 });
    const customer = await callRoute(adminCustomer.loader, `/admin-dashboard/customers/${alice.id}`, {
      cookie: cookies.admin,
      params: { customerId: alice.id },
    });
    expect((await customer.json()).billing).toEqual({ balance: "$0.00", owes: false, credit: null });
  });

  it("a double press (the same key twice, or at once) makes one payment", async () => {
    const id = await createInvoice(alice.id);
    const first = await recordPayment(id, { amount: "10" });
    const second = await recordPayment(id, { amount: "10" });
    expect([first.status, second.status]).toEqual([302, 302]);
    const key = "0b7e3a52-1d5e-4f3c-8a9b-1c2d3e4f5a6b";
    const both = await Promise.all([recordPayment(id, { amount: "5", key }), recordPayment(id, { amount: "5", key })]);
    expect(both.map((r) => r.status)).toEqual([302, 302]);
    expect((await payments()).map((p) => p.amount_cents).sort()).toEqual([1000, 500]);
    expect(await invoiceRow(id)).toMatchObject({ status: "open", paid_cents: 1500 });
  });

  it("refuses bad amounts, methods, dates and keys with 400 and stores nothing", async () => {
    const id = await createInvoice(alice.id);
    for (const form of <Record<string, string>[]>[
      { amount: "12.505" },
      { amount: "-5" },
      { amount: "0" },
      { amount: "1e3" },
      { amount: "99999999999" },
      { amount: "" },
      { method: "stripe" },
      { method: "bitcoin" },
      { paidOn: "2027-02-30" },
      { key: "not-a-key" },
      { note: "x".repeat(501) },
    ]) {
      const response = await recordPayment(id, form);
      expect(response.status, JSON.stringify(form)).toBe(400);
    }
    expect(await payments()).toEqual([]);
    expect(await invoiceRow(id)).toMatchObject({ status: "open", paid_cents: 0 });
  });

  it("refuses more than the balance, a payment on a void invoice, and an unknown invoice", async () => {
    const id = await createInvoice(alice.id);
    expect((await recordPayment(id, { amount: "89.01" })).status).toBe(409);
    const voided = await callRoute(adminInvoice.action, `/admin-dashboard/billing/${id}`, {
      cookie: cookies.admin,
      params: { invoiceId: id },
      form: { intent: "void" },
    });
    expect(voided.status).toBe(302);
    expect(await invoiceRow(id)).toMatchObject({ status: "void" });
    expect((await recordPayment(id)).status).toBe(409);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await recordPayment(missing)).status).toBe(404);
    expect((await recordPayment("nope")).status).toBe(404);
    expect(await payments()).toEqual([]);
  });

  it("a refund cannot exceed what was paid; a refund never reopens a paid invoice; a paid invoice cannot be voided", async () => {
    const id = await createInvoice(alice.id);
    await recordPayment(id);
    const [payment] = await payments();
    const refund = (amount: string, key: string) =>
      callRoute(adminInvoice.action, `/admin-dashboard/billing/${id}`, {
        cookie: cookies.admin,
        params: { invoiceId: id },
        form: { intent: "refund", paymentId: payment.id, amount, note: "", key },
      });
    expect((await refund("89.01", "1a2b3c4d-1111-4222-8333-444455556666")).status).toBe(409);
    expect((await db().selectFrom("refunds").selectAll().execute()).length).toBe(0);
    expect((await refund("20", "1a2b3c4d-1111-4222-8333-444455556667")).status).toBe(302);
    // The same key again: one refund.
    expect((await refund("20", "1a2b3c4d-1111-4222-8333-444455556667")).status).toBe(302);
    // A refund is money given back: the invoice stays paid and shows it, a credit note balances it,
    // and the customer owes nothing (docs/decisions/113).
    expect(await invoiceRow(id)).toMatchObject({ status: "paid", paid_cents: 8900, refunded_cents: 2000 });
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    expect(await db().selectFrom("credit_notes").select(["reason", "paid_out", "amount_cents"]).execute()).toEqual([
      { reason: "refund", paid_out: "refund", amount_cents: 2000 },
    ]);
    expect((await refund("69.01", "1a2b3c4d-1111-4222-8333-444455556668")).status).toBe(409);
    expect((await refund("69", "1a2b3c4d-1111-4222-8333-444455556669")).status).toBe(302);
    expect(await db().selectFrom("payments").select("refunded_cents").executeTakeFirstOrThrow()).toEqual({
      refunded_cents: 8900,
    });
    expect(await invoiceRow(id)).toMatchObject({ status: "paid", refunded_cents: 8900 });
    expect(await ledgerSum(db(), alice.id)).toBe(0);
    // The database refuses a refund above the payment even if the code did not.
    await expect(
      db().updateTable("payments").set({ refunded_cents: 8901 }).where("id", "=", payment.id).execute(),
    ).rejects.toThrow(/payments_refunded_check/);

    const paid = await createInvoice(alice.id);
    await recordPayment(paid, { key: "2a2b3c4d-1111-4222-8333-444455556666" });
    const voiding = await callRoute(adminInvoice.action, `/admin-dashboard/billing/${paid}`, {
      cookie: cookies.admin,
      params: { invoiceId: paid },
      form: { intent: "void" },
    });
    expect(voiding.status).toBe(409);
    expect(await invoiceRow(paid)).toMatchObject({ status: "paid" });
  });

  it("an open invoice is written off once (Mark uncollectible); a paid one cannot be, and nothing changes", async () => {
    const markUncollectible = (invoiceId: string) =>
      callRoute(adminInvoice.action, `/admin-dashboard/billing/${invoiceId}`, {
        cookie: cookies.admin,
        params: { invoiceId },
        form: { intent: "uncollectible" },
      });
    const id = await createInvoice(alice.id);
    await recordPayment(id, { amount: "20" });
    const written = await markUncollectible(id);
    expect(written.status).toBe(302);
    expect(await invoiceRow(id)).toMatchObject({ status: "uncollectible", paid_cents: 2000 });
    // A second press finds it written off already: the same answer, nothing new.
    expect((await markUncollectible(id)).status).toBe(302);
    expect((await recordPayment(id, { key: "3a2b3c4d-1111-4222-8333-444455556666" })).status).toBe(409);
    expect((await payments()).length).toBe(1);

    const paid = await createInvoice(alice.id);
    await recordPayment(paid, { key: "3a2b3c4d-1111-4222-8333-444455556667" });
    const refused = await markUncollectible(paid);
    expect(refused.status).toBe(409);
    expect(await invoiceRow(paid)).toMatchObject({ status: "paid" });

    // Only an admin: a customer's post is refused and stores nothing.
    const other = await createInvoice(alice.id);
    const byCustomer = await callRoute(adminInvoice.action, `/admin-dashboard/billing/${other}`, {
      cookie: cookies.alice,
      params: { invoiceId: other },
      form: { intent: "uncollectible" },
    });
    expect(locationOf(byCustomer)).toBe("/customer-dashboard");
    expect((await toastOf(byCustomer))?.message).toBe("Access Denied");
    expect(await invoiceRow(other)).toMatchObject({ status: "open" });
  });

  it("the Billing tab lists open invoices overdue first, with the month's totals, and pages by key", async () => {
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await createInvoice(i === 0 ? alice.id : bob.id, 1000 * (i + 1)));
    await db()
      .updateTable("invoices")
      .set({ due_on: "2026-01-01", issued_on: "2026-01-01" })
      .where("id", "=", ids[2])
      .execute();
    const response = await callRoute(billingTab.loader, "/admin-dashboard/billing?status=open", {
      cookie: cookies.admin,
    });
    const data = await response.json();
    expect(data.invoices.map((row: { id: string }) => row.id)[0]).toBe(ids[2]);
    expect(data.invoices.map((row: { overdue: boolean }) => row.overdue)).toEqual([true, false, false]);
    expect(data.overdue).toBe(1);
    expect(data.next).toBeNull();
    const bad = await callRoute(billingTab.loader, "/admin-dashboard/billing?status=nope&after=x", {
      cookie: cookies.admin,
    });
    expect(bad.status).toBe(200);
  });
});
