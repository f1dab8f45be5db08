import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/test-database";
import { createMigrator } from "./migrator";

/**
 * Migration 0021 (the customer ledger, docs/decisions/113) turns the invoices, payments and refunds
 * made before it into ledger entries and loses nothing: every customer's balance is the same
 * before and after, and a database whose invoices disagree with their payments stops it whole.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});
const db = () => database.db;

async function user(email: string) {
  const { rows } = await sql<{ id: string }>`insert into users (email) values (${email}) returning id`.execute(db());
  return rows[0].id;
}
let number = 0;
async function invoice(customer: string, status: string, total: number, paid: number) {
  number += 1;
  const { rows } = await sql<{ id: string }>`
    insert into invoices (number, customer_id, period_month, status, issued_on, due_on, total_cents, paid_cents,
                          paid_at, voided_at, uncollectible_at)
    values (${`2027-${String(number).padStart(6, "0")}`}, ${customer}, ${`2027-0${number}-01`}, ${status},
            '2027-03-01', '2027-03-01', ${total}, ${paid},
            ${status === "paid" ? new Date("2027-03-02T18:00:00Z") : null},
            ${status === "void" ? new Date("2027-03-03T18:00:00Z") : null},
            ${status === "uncollectible" ? new Date("2027-03-04T18:00:00Z") : null})
    returning id`.execute(db());
  return rows[0].id;
}
async function payment(invoiceId: string, amount: number, refunded = 0) {
  const { rows } = await sql<{ id: string }>`
    insert into payments (invoice_id, method, amount_cents, refunded_cents, paid_on, idempotency_key)
    values (${invoiceId}, 'cash', ${amount}, ${refunded}, '2027-03-02', ${`key-${invoiceId}-${amount}`})
    returning id`.execute(db());
  if (refunded > 0) {
    await sql`insert into refunds (payment_id, amount_cents, refunded_on, idempotency_key)
      values (${rows[0].id}, ${refunded}, '2027-03-03', ${`refund-${rows[0].id}`})`.execute(db());
  }
  return rows[0].id;
}
const balanceOf = async (customer: string) => {
  const { rows } = await sql<{ sum: string }>`
    select coalesce(sum(amount_cents), 0) as sum from ledger_entries where customer_id = ${customer}`.execute(db());
  return Number(rows[0].sum);
};

describe("migration 0021, the customer ledger", () => {
  it("enters what was made before it with every balance unchanged, and settles negative invoices", async () => {
    const migrator = createMigrator(db());
    expect((await migrator.migrateTo("0020-billing-emails")).error).toBeUndefined();

    // Owes 69.00: 89.00 paid, 20.00 refunded (before the ledger, a refund made it owed again).
    const refunded = await user("refunded@example.com");
    const a = await invoice(refunded, "open", 8900, 6900);
    await payment(a, 8900, 2000);
    // Has 10.00 of credit: paid 99.00 on an 89.00 invoice (the old pages showed 0).
    const overpaid = await user("overpaid@example.com");
    await payment(await invoice(overpaid, "paid", 8900, 9900), 9900);
    // An "open" invoice of -15.00 (credits above the price), never applied: 15.00 of credit.
    const negative = await user("negative@example.com");
    const minus = await invoice(negative, "open", -1500, 0);
    // Written off after 20.00 paid; and a void one.
    const writtenOff = await user("written-off@example.com");
    await payment(await invoice(writtenOff, "uncollectible", 8900, 2000), 2000);
    await invoice(writtenOff, "void", 4500, 0);

    const result = await migrator.migrateToLatest();
    expect(result.error).toBeUndefined();

    expect(await balanceOf(refunded)).toBe(2000);
    expect(await balanceOf(overpaid)).toBe(-1000);
    expect(await balanceOf(negative)).toBe(-1500);
    expect(await balanceOf(writtenOff)).toBe(0);
    const { rows: kinds } = await sql<{ kind: string; amount_cents: number }>`
      select kind, amount_cents from ledger_entries where customer_id = ${writtenOff} order by id`.execute(db());
    expect(kinds).toEqual([
      { kind: "invoice", amount_cents: 8900 },
      { kind: "invoice", amount_cents: 4500 },
      { kind: "invoice_void", amount_cents: -4500 },
      { kind: "write_off", amount_cents: -6900 },
      { kind: "payment", amount_cents: -2000 },
    ]);
    const { rows: settled } = await sql<{ status: string }>`select status from invoices where id = ${minus}`.execute(
      db(),
    );
    expect(settled[0].status).toBe("paid");
    const { rows: shown } = await sql<{ refunded_cents: number; status: string }>`
      select refunded_cents, status from invoices where id = ${a}`.execute(db());
    expect(shown[0]).toEqual({ refunded_cents: 2000, status: "open" });
  });

  it("stops, changing nothing, when an invoice's paid amount disagrees with its payments", async () => {
    const migrator = createMigrator(db());
    expect((await migrator.migrateTo("0020-billing-emails")).error).toBeUndefined();
    // The down migration dropped the ledger; the invoices above are still here (and consistent).
    const drifted = await user("drifted@example.com");
    const id = await invoice(drifted, "open", 8900, 5000);
    await payment(id, 4000); // says 50.00 paid, but 40.00 came

    const result = await migrator.migrateToLatest();
    expect(result.error).toBeInstanceOf(Error);
    expect(String((result.error as Error).message)).toContain(`customer ${drifted}: 3900 cents before, 4900 after`);
    const tables = (await db().introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain("ledger_entries");
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
      db(),
    );
    expect(rows[0].name).toBe("0020-billing-emails");

    // Once the invoice is put right, it goes through.
    await sql`update invoices set paid_cents = 4000 where id = ${id}`.execute(db());
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await balanceOf(drifted)).toBe(4900);
  });
});
