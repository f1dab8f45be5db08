import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { MAIL_CONTEXT, createOpenInvoice } from "../helpers/billing-fixtures";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { clearMoney } from "../helpers/ledger";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { recordPayment, recordRefund } from "~/features/billing/payments.server";
import { insertCreditNote } from "~/models/ledger.server";
import * as adminCreditNote from "~/routes/admin-dashboard.billing.credit-notes.$creditNoteId";
import * as adminCreditNotePdf from "~/routes/admin-dashboard.billing.credit-notes.$creditNoteId_.pdf";
import * as adminInvoice from "~/routes/admin-dashboard.billing.$invoiceId";
import * as customerCreditNote from "~/routes/customer-dashboard_.billing.credit-notes.$creditNoteId";
import * as creditNotePdf from "~/routes/customer-dashboard_.billing.credit-notes.$creditNoteId_.pdf";
import * as customerInvoice from "~/routes/customer-dashboard_.billing.$invoiceId";
import * as customerBilling from "~/routes/customer-dashboard_.billing._index";

/**
 * Credit notes as documents (issue 34 item 3, docs/decisions/118) through their routes: the
 * customer's page and PDF of their own credit note, the admin's page and PDF of any, the links
 * from the invoice and the Billing page; anyone else's is a 404, signed out goes to sign in.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const cookies: Record<string, string> = {};

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

/** Alice's $89.00 invoice paid in cash, then $20.00 of it refunded: the refund's credit note. */
async function refundedInvoice() {
  const invoiceId = await createOpenInvoice(db(), alice.id, 8900);
  const now = new Date("2028-03-05T18:00:00Z");
  await recordPayment(db(), {
    invoiceId,
    method: "cash",
    amountCents: 8900,
    paidOn: "2028-03-02",
    note: null,
    recordedBy: admin.id,
    idempotencyKey: crypto.randomUUID(),
    now,
    context: MAIL_CONTEXT,
  });
  const payment = await db()
    .selectFrom("payments")
    .select("id")
    .where("invoice_id", "=", invoiceId)
    .executeTakeFirstOrThrow();
  await recordRefund(db(), {
    invoiceId,
    paymentId: payment.id,
    amountCents: 2000,
    refundedOn: "2028-03-05",
    note: "Missed a corner",
    recordedBy: admin.id,
    idempotencyKey: crypto.randomUUID(),
    now,
  });
  const note = await db()
    .selectFrom("credit_notes")
    .select(["id", "number"])
    .where("invoice_id", "=", invoiceId)
    .executeTakeFirstOrThrow();
  return { invoiceId, note };
}

const page = (id: string, cookie?: string) =>
  callRoute(customerCreditNote.loader, `/customer-dashboard/billing/credit-notes/${id}`, {
    cookie,
    params: { creditNoteId: id },
  });
const pdf = (id: string, cookie?: string) =>
  callRoute(creditNotePdf.loader, `/customer-dashboard/billing/credit-notes/${id}/pdf`, {
    cookie,
    params: { creditNoteId: id },
  });
const adminPage = (id: string, cookie?: string) =>
  callRoute(adminCreditNote.loader, `/admin-dashboard/billing/credit-notes/${id}`, {
    cookie,
    params: { creditNoteId: id },
  });
const adminPdf = (id: string, cookie?: string) =>
  callRoute(adminCreditNotePdf.loader, `/admin-dashboard/billing/credit-notes/${id}/pdf`, {
    cookie,
    params: { creditNoteId: id },
  });

async function expectPdf(response: Response, number: string) {
  expect(response.status).toBe(200);
  expect(response.headers.get("Content-Type")).toBe("application/pdf");
  expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="credit-note-${number}.pdf"`);
  expect(response.body).toBeInstanceOf(ReadableStream);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
  expect(bytes.subarray(-6).toString()).toContain("%%EOF");
}

describe("a credit note's pages", () => {
  it("the customer sees their own credit note and its PDF, linked from the invoice and the Billing page", async () => {
    const { invoiceId, note } = await refundedInvoice();
    expect(note.number).toMatch(/^CN-2028-\d{7}$/);
    const response = await page(note.id, cookies.alice);
    expect(response.status).toBe(200);
    const { note: shown } = await response.json();
    expect(shown).toMatchObject({
      number: note.number,
      reason: "Refund",
      issued: "Mar 5, 2028",
      description: "Refund: Missed a corner",
      amount: "$20.00",
      paidOut: "Refunded",
      howPaid: "Paid back as a refund of your payment.",
      customer: { name: "Alice Able", email: alice.email },
      invoice: { id: invoiceId, number: expect.stringMatching(/^2028-\d{6}$/) },
    });
    await expectPdf(await pdf(note.id, cookies.alice), note.number);

    // Where credit notes are listed: the invoice's credit lines (by id, for the link) and Billing.
    const invoice = await (
      await callRoute(customerInvoice.loader, `/customer-dashboard/billing/${invoiceId}`, {
        cookie: cookies.alice,
        params: { invoiceId },
      })
    ).json();
    expect(invoice.invoice.creditNotes).toMatchObject([{ id: note.id, number: note.number }]);
    const billing = await (
      await callRoute(customerBilling.loader, "/customer-dashboard/billing", { cookie: cookies.alice })
    ).json();
    expect(billing.creditNotes).toEqual([
      expect.objectContaining({
        id: note.id,
        number: note.number,
        issued: "Mar 5, 2028",
        reason: "Refund",
        amount: "$20.00",
        paidOut: "Refunded",
      }),
    ]);
  });

  it("a credit note kept as credit, of no invoice, says so", async () => {
    const made = await insertCreditNote(db(), {
      customerId: alice.id,
      invoiceId: null,
      reason: "goodwill",
      paidOut: "credit",
      amountCents: 1500,
      issuedOn: "2028-04-02",
      description: "Sorry for the late visit",
      refundId: null,
      idempotencyKey: "goodwill-pages",
    });
    const { note } = await (await page(made!.id, cookies.alice)).json();
    expect(note).toMatchObject({
      reason: "Goodwill credit",
      paidOut: "Credit on file",
      howPaid: "Kept as credit on file: what you owe next uses it first.",
      invoice: null,
    });
    await expectPdf(await pdf(made!.id, cookies.alice), made!.number);
  });

  it("another customer's, a missing or a malformed id is a 404 (page and PDF); signed out goes to sign in", async () => {
    const { note } = await refundedInvoice();
    expect((await page(note.id, cookies.bob)).status).toBe(404);
    expect((await pdf(note.id, cookies.bob)).status).toBe(404);
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", "'; select 1;--"]) {
      expect((await page(id, cookies.alice)).status).toBe(404);
      expect((await pdf(id, cookies.alice)).status).toBe(404);
      expect((await adminPage(id, cookies.admin)).status).toBe(404);
      expect((await adminPdf(id, cookies.admin)).status).toBe(404);
    }
    for (const call of [page, pdf, adminPage, adminPdf]) {
      const response = await call(note.id);
      expect(response.status).toBe(302);
      expect(locationOf(response)).toMatch(/^\/auth/);
    }
  });

  it("the admin sees any credit note and its PDF, linked from the invoice page; a customer is denied them", async () => {
    const { invoiceId, note } = await refundedInvoice();
    const response = await adminPage(note.id, cookies.admin);
    expect(response.status).toBe(200);
    expect((await response.json()).note).toMatchObject({ number: note.number, customer: { id: alice.id } });
    await expectPdf(await adminPdf(note.id, cookies.admin), note.number);
    const invoice = await (
      await callRoute(adminInvoice.loader, `/admin-dashboard/billing/${invoiceId}`, {
        cookie: cookies.admin,
        params: { invoiceId },
      })
    ).json();
    expect(invoice.invoice.creditNotes).toMatchObject([{ id: note.id }]);
    for (const call of [adminPage, adminPdf]) {
      const denied = await call(note.id, cookies.alice);
      expect(denied.status).toBe(302);
      expect(locationOf(denied)).toBe("/customer-dashboard");
      expect((await toastOf(denied))?.message).toBe("Access Denied");
    }
  });
});
