import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser } from "../helpers/factories";
import { readBillingTab } from "~/models/invoice.server";

/**
 * `invoice_tallies` (migration 0019, docs/decisions/105): whatever writes invoices (a bulk insert
 * as the run makes, a payment, a void, an update of other columns, a delete), the tallies equal
 * the invoices summed afresh, and the Billing tab's figures are read from them in the same round
 * trip as its page.
 */
const database = useAppDatabase();
const db = () => database.current.db;
let customers: string[] = [];
let number = 0;

beforeAll(async () => {
  customers = [];
  for (let i = 0; i < 4; i += 1) customers.push((await createUser(db(), { fullName: `Tally ${i}` })).id);
});

function invoice(customerId: string, period: string, dueOn: string | null, totalCents: number) {
  number += 1;
  return {
    number: `2031-${String(number).padStart(6, "0")}`,
    customer_id: customerId,
    plan_id: null,
    period_month: period,
    status: dueOn ? ("open" as const) : ("draft" as const),
    issued_on: dueOn,
    due_on: dueOn,
    total_cents: totalCents,
    footer: null,
  };
}

/** The tallies beside the invoices grouped afresh, both without the rows that count nothing. */
async function expectTalliesToMatch() {
  const { rows: kept } = await sql<{ key: string }>`
    select period_month || ' ' || status || ' ' || coalesce(due_on::text, '-') || ' ' || sum(invoices) || ' '
      || sum(total_cents) || ' ' || sum(paid_cents) as key
    from invoice_tallies group by period_month, status, due_on
    having sum(invoices) <> 0 or sum(total_cents) <> 0 or sum(paid_cents) <> 0 order by 1`.execute(db());
  const { rows: fresh } = await sql<{ key: string }>`
    select period_month || ' ' || status || ' ' || coalesce(due_on::text, '-') || ' ' || count(*) || ' '
      || sum(total_cents) || ' ' || sum(paid_cents) as key
    from invoices group by period_month, status, due_on order by 1`.execute(db());
  expect(kept.map((row) => row.key)).toEqual(fresh.map((row) => row.key));
  return kept.length;
}

describe("invoice tallies", () => {
  it("follow a bulk insert, payments, a void, other columns' updates and deletes", async () => {
    await db()
      .insertInto("invoices")
      .values([
        invoice(customers[0], "2031-01-01", "2031-01-01", 8900),
        invoice(customers[1], "2031-01-01", "2031-01-01", 4500),
        invoice(customers[2], "2031-01-01", "2031-01-15", 1000),
        invoice(customers[3], "2031-01-01", null, 700),
        invoice(customers[0], "2031-02-01", "2031-02-01", 8900),
        invoice(customers[1], "2031-02-01", null, 300),
      ])
      .execute();
    expect(await expectTalliesToMatch()).toBe(5);

    // Part paid, then paid in full, in one statement for two invoices of one group.
    await db().updateTable("invoices").set({ paid_cents: 4000 }).where("total_cents", "=", 8900).execute();
    await expectTalliesToMatch();
    await db()
      .updateTable("invoices")
      .set({ paid_cents: 4500, status: "paid", paid_at: new Date() })
      .where("total_cents", "=", 4500)
      .execute();
    await db()
      .updateTable("invoices")
      .set({ status: "void", voided_at: new Date() })
      .where("total_cents", "=", 1000)
      .execute();
    await expectTalliesToMatch();

    // An update of other columns changes no tally row.
    const before = await db().selectFrom("invoice_tallies").selectAll().orderBy("period_month").execute();
    await db().updateTable("invoices").set({ footer: "Thanks" }).execute();
    expect(await db().selectFrom("invoice_tallies").selectAll().orderBy("period_month").execute()).toEqual(before);

    // An issued invoice is a ledger entry and stays (docs/decisions/113): February's is voided; its
    // draft, never issued, can be deleted.
    await db()
      .updateTable("invoices")
      .set({ status: "void", voided_at: new Date() })
      .where("period_month", "=", "2031-02-01")
      .where("status", "=", "open")
      .execute();
    await db().deleteFrom("invoices").where("period_month", "=", "2031-02-01").where("status", "=", "draft").execute();
    await expectTalliesToMatch();
  });

  it("give the Billing tab its month's figures and the overdue count with its page", async () => {
    const tab = await readBillingTab(db(), {
      status: "open",
      after: null,
      limit: 51,
      period: "2031-01-01",
      today: "2031-01-10",
    });
    // Open in January 2031: the $89.00 invoice with $40.00 paid (due Jan 1, so overdue on the 10th).
    expect(tab.rows.map((row) => row.total_cents)).toEqual([8900]);
    expect(tab.figures).toEqual({ invoiced: 8900 + 4500 + 700, paid: 4000 + 4500, open: 4900, count: 4, overdue: 1 });

    const empty = await readBillingTab(db(), {
      status: "uncollectible",
      after: null,
      limit: 51,
      period: "2031-01-01",
      today: "2031-01-20",
    });
    expect(empty.rows).toEqual([]);
    expect(empty.figures.count).toBe(4);
    expect(empty.figures.overdue).toBe(1);
  });
});
