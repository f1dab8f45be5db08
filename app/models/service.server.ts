import type { Selectable } from "kysely";
import type { ServicesTable, ServiceType } from "../../db/schema";
import { getDb } from "~/utils/db.server";
import { isNotAdmin } from "./user-roles.server";
import { isUuid } from "~/utils/uuid";

export type Service = Selectable<ServicesTable>;

/** SPEC 6/9: a customer sees their own latest 5 services, newest service date first. */
export async function listRecentServicesForCustomer(customerId: string, limit = 5): Promise<Service[]> {
  const db = await getDb();
  return db
    .selectFrom("services")
    .selectAll()
    .where("customer_id", "=", customerId)
    .orderBy("service_date", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function isCustomer(userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .select("users.id")
    .where("users.id", "=", userId)
    .where(isNotAdmin)
    .executeTakeFirst();
  return Boolean(row);
}

export type NewServiceInput = {
  customerId: string;
  serviceType: ServiceType;
  serviceDate: Date;
  notes: string | null;
  createdBy: string;
  /** The booking this visit comes from; services.booking_id is unique, so one visit per booking. */
  bookingId?: string | null;
};

/** SPEC 4: an admin creates a service as 'scheduled'. */
export async function createService(input: NewServiceInput): Promise<Service> {
  const db = await getDb();
  return db
    .insertInto("services")
    .values({
      customer_id: input.customerId,
      service_type: input.serviceType,
      service_date: input.serviceDate,
      status: "scheduled",
      notes: input.notes,
      created_by: input.createdBy,
      booking_id: input.bookingId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The visit created from a booking, if any. */
export async function findServiceByBookingId(bookingId: string): Promise<Service | null> {
  if (!isUuid(bookingId)) return null;
  const db = await getDb();
  return (await db.selectFrom("services").selectAll().where("booking_id", "=", bookingId).executeTakeFirst()) ?? null;
}
