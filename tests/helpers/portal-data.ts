import type { Kysely } from "kysely";
import type { Database, VisitType } from "../../db/schema";

const day = 24 * 60 * 60 * 1000;

export async function createVisitRow(
  db: Kysely<Database>,
  customerId: string,
  options: {
    type?: VisitType;
    daysFromNow?: number;
    status?: "scheduled" | "completed" | "skipped";
    notes?: string;
  } = {},
) {
  return db
    .insertInto("services")
    .values({
      customer_id: customerId,
      service_type: options.type ?? "Weekly Service",
      service_date: new Date(Date.now() + (options.daysFromNow ?? -1) * day),
      status: options.status ?? "completed",
      notes: options.notes ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function createBookingRow(
  db: Kysely<Database>,
  customerId: string,
  options: { type?: string; daysFromNow?: number; status?: "pending" | "confirmed" | "cancelled" } = {},
) {
  return db
    .insertInto("bookings")
    .values({
      customer_id: customerId,
      service_type: options.type ?? "Trash Bin Clean",
      booking_date: new Date(Date.now() + (options.daysFromNow ?? 3) * day),
      status: options.status ?? "pending",
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
