import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { INVOICE_SEQUENCE_MAX, invoiceNumber } from "../../db/enums";
import { useAppDatabase } from "../helpers/app-database";
import { runBilling } from "~/features/billing/billing-run.server";

/**
 * Invoice numbers at scale (issue 34 item 10, migration 0022, docs/decisions/112): 0014's CHECKs
 * stopped a year at 999,999 invoices, so at ~95,000 a month the November run failed for everyone.
 */
const database = useAppDatabase();
const db = () => database.current.db;

async function weeklyPlans(count: number) {
  for (let i = 0; i < count; i += 1) {
    const customer = await db()
      .insertInto("users")
      .values({ email: `numbers-${i}-${crypto.randomUUID()}@example.com` })
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
        start_date: "2030-01-01",
      })
      .execute();
  }
}

describe("invoice numbers", () => {
  it("format the year's sequence padded to six digits, then wider up to eight", () => {
    expect(invoiceNumber(2027, 1)).toBe("2027-000001");
    expect(invoiceNumber(2027, 999_999)).toBe("2027-999999");
    expect(invoiceNumber(2027, 1_000_000)).toBe("2027-1000000");
    expect(invoiceNumber(2027, 10_000_000)).toBe("2027-10000000");
    expect(invoiceNumber(2027, INVOICE_SEQUENCE_MAX)).toBe("2027-99999999");
    for (const bad of [0, -1, 1.5, INVOICE_SEQUENCE_MAX + 1, Number.NaN]) {
      expect(() => invoiceNumber(2027, bad)).toThrow(RangeError);
    }
  });

  it("a billing run goes on past the year's 999,999th invoice: 2030-999999, 2030-1000000, 2030-1000001", async () => {
    await weeklyPlans(3);
    // As if 999,998 invoices had been issued this year already (0014's CHECK allowed at most 999,999).
    await db().insertInto("invoice_number_counters").values({ year: 2030, last_number: 999_998 }).execute();
    const result = await runBilling({ now: new Date("2030-03-01T17:00:00Z"), stripeConfigured: false });
    expect(result.invoices).toBe(3);
    const numbers = await db().selectFrom("invoices").select("number").orderBy("number").execute();
    expect(numbers.map((row) => row.number).sort()).toEqual(["2030-1000000", "2030-1000001", "2030-999999"]);
    const counter = await db()
      .selectFrom("invoice_number_counters")
      .select("last_number")
      .where("year", "=", 2030)
      .executeTakeFirstOrThrow();
    expect(counter.last_number).toBe(1_000_001);
  });

  it("the database keeps the numbers issued before 0022 and refuses a malformed or too wide one (nothing stored)", async () => {
    const customer = await db()
      .insertInto("users")
      .values({ email: `numbers-check-${crypto.randomUUID()}@example.com` })
      .returning("id")
      .executeTakeFirstOrThrow();
    // One plan-less invoice per customer and month: each insert its own month.
    let month = 0;
    const insert = (number: string) =>
      db()
        .insertInto("invoices")
        .values({
          number,
          customer_id: customer.id,
          period_month: `2031-${String((month++ % 12) + 1).padStart(2, "0")}-01`,
          status: "open",
          issued_on: "2031-01-01",
          due_on: "2031-01-01",
          total_cents: 100,
        })
        .execute();
    await insert("2031-000001");
    await insert(invoiceNumber(2031, 10_000_000));
    for (const bad of ["2031-00001", "2031-123456789", "31-000001", "2031-00000a"]) {
      await expect(insert(bad), bad).rejects.toThrow(/invoices_number_check/);
    }
    const stored = await db()
      .selectFrom("invoices")
      .select("number")
      .where("customer_id", "=", customer.id)
      .orderBy("number")
      .execute();
    expect(stored.map((row) => row.number)).toEqual(["2031-000001", "2031-10000000"]);

    await db()
      .insertInto("invoice_number_counters")
      .values({ year: 2032, last_number: INVOICE_SEQUENCE_MAX })
      .execute();
    await expect(
      db()
        .insertInto("invoice_number_counters")
        .values({ year: 2033, last_number: INVOICE_SEQUENCE_MAX + 1 })
        .execute(),
    ).rejects.toThrow(/last_number_check/);
    const { rows } = await sql<{ year: number }>`select year from invoice_number_counters where year >= 2032`.execute(
      db(),
    );
    expect(rows).toEqual([{ year: 2032 }]);
  });
});
