import type { Db } from "~/utils/db.server";

/** The tables that keep one counter row per year for a numbered document. */
export type NumberCounterTable = "invoice_number_counters" | "credit_note_number_counters";

/**
 * The next number of a year's counter (invoices "2027-000123", credit notes "CN-2027-0000001";
 * docs/decisions/100, 113): the row is made if missing, then incremented, which locks it until the
 * transaction ends, so two transactions never take the same number and a rolled-back one leaves no
 * gap.
 */
export async function allocateNumber(trx: Db, table: NumberCounterTable, year: number): Promise<number> {
  await trx
    .insertInto(table)
    .values({ year, last_number: 0 })
    .onConflict((oc) => oc.column("year").doNothing())
    .execute();
  const row = await trx
    .updateTable(table)
    .set((eb) => ({ last_number: eb("last_number", "+", 1) }))
    .where("year", "=", year)
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return row.last_number;
}
