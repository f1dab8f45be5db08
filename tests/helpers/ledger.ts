import { sql, type Kysely } from "kysely";
import type { Database } from "../../db/schema";

/**
 * Empties the money tables between tests, the ledger first. The ledger refuses every DELETE (it
 * is append-only, docs/decisions/113), so the tests, as the tables' owner, switch its guard off for
 * this one transaction: exactly what an application query can never do.
 */
export async function clearMoney(db: Kysely<Database>) {
  await db.transaction().execute(async (trx) => {
    await sql`alter table ledger_entries disable trigger ledger_entries_append_only`.execute(trx);
    await trx.deleteFrom("ledger_entries").execute();
    await sql`alter table ledger_entries enable trigger ledger_entries_append_only`.execute(trx);
    await trx.deleteFrom("ledger_tallies").execute();
    await trx.deleteFrom("tips").execute();
    await trx.deleteFrom("credit_notes").execute();
    await trx.deleteFrom("payment_reversals").execute();
    await trx.deleteFrom("refunds").execute();
    await trx.deleteFrom("payments").execute();
    await trx.deleteFrom("invoice_lines").execute();
    await trx.deleteFrom("invoices").execute();
  });
}

/** A customer's balance as the ledger sums it. */
export async function ledgerSum(db: Kysely<Database>, customerId: string): Promise<number> {
  const row = await db
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("amount_cents"), sql<string>`0`).as("sum"))
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}
