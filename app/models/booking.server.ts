import type { Selectable } from "kysely";
import type { BookingsTable } from "../../db/schema";
import { getDb } from "~/utils/db.server";

export type Booking = Selectable<BookingsTable>;

/** SPEC 6/9: a customer's own latest 5 bookings, by booking date descending. */
export async function listRecentBookingsForCustomer(customerId: string, limit = 5): Promise<Booking[]> {
  const db = await getDb();
  return db
    .selectFrom("bookings")
    .selectAll()
    .where("customer_id", "=", customerId)
    .orderBy("booking_date", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
}
