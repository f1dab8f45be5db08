import { getDb, type Db } from "~/utils/db.server";

/** Each customer's technician (stable assignment, migration 0039) for these customers. */
export async function technicianOfCustomers(customerIds: readonly string[], db?: Db): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (customerIds.length === 0) return map;
  const handle = db ?? (await getDb());
  const unique = [...new Set(customerIds)];
  for (let i = 0; i < unique.length; i += 5000) {
    const rows = await handle
      .selectFrom("customer_technicians")
      .select(["customer_id", "technician_id"])
      .where("customer_id", "in", unique.slice(i, i + 5000))
      .execute();
    for (const row of rows) map.set(row.customer_id, row.technician_id);
  }
  return map;
}

/** Keeps each customer with the given technician from now on (the split's or the owner's choice). */
export async function setCustomerTechnicians(
  db: Db,
  placements: readonly { customerId: string; technicianId: string }[],
  placedBy: "split" | "owner",
) {
  for (let i = 0; i < placements.length; i += 2000) {
    const values = placements.slice(i, i + 2000).map((p) => ({
      customer_id: p.customerId,
      technician_id: p.technicianId,
      placed_by: placedBy,
      updated_at: new Date(),
    }));
    await db
      .insertInto("customer_technicians")
      .values(values)
      .onConflict((oc) =>
        oc.column("customer_id").doUpdateSet((eb) => ({
          technician_id: eb.ref("excluded.technician_id"),
          placed_by: eb.ref("excluded.placed_by"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

/** The customers a technician keeps (for "Reassign"). */
export async function customersOfTechnician(technicianId: string, db?: Db): Promise<string[]> {
  const handle = db ?? (await getDb());
  const rows = await handle
    .selectFrom("customer_technicians")
    .select("customer_id")
    .where("technician_id", "=", technicianId)
    .execute();
  return rows.map((row) => row.customer_id);
}
