import { sql } from "kysely";
import type { Db } from "~/utils/db.server";

// Review requests and the customers' private notes (migration 0049, decision 133): table access only.

/** The customer's completed visits (services_customer_id_service_date_idx serves it). */
export async function countCompletedVisits(db: Db, customerId: string) {
  const row = await db
    .selectFrom("services")
    .select(sql<string>`count(*)`.as("n"))
    .where("customer_id", "=", customerId)
    .where("status", "=", "completed")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a visit of the customer's that started on or after `since` was missed. */
export async function hasMissedVisitSince(db: Db, customerId: string, since: Date) {
  const row = await db
    .selectFrom("services")
    .select("id")
    .where("customer_id", "=", customerId)
    .where("service_date", ">=", since)
    .where("status", "=", "missed")
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the customer has had their review request (one per customer, ever). */
export async function hasReviewRequest(db: Db, customerId: string) {
  const row = await db
    .selectFrom("review_requests")
    .select("customer_id")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the customer's one review request; false when they had it already (also at once). */
export async function claimReviewRequest(db: Db, customerId: string, visitId: string) {
  const row = await db
    .insertInto("review_requests")
    .values({ customer_id: customerId, visit_id: visitId })
    .onConflict((oc) => oc.column("customer_id").doNothing())
    .returning("customer_id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertCustomerFeedback(db: Db, customerId: string, message: string) {
  return db
    .insertInto("customer_feedback")
    .values({ customer_id: customerId, message })
    .returning(["id", "created_at"])
    .executeTakeFirstOrThrow();
}

/** The customer's private notes written on or after `since`. */
export async function countFeedbackSince(db: Db, customerId: string, since: Date) {
  const row = await db
    .selectFrom("customer_feedback")
    .select(sql<string>`count(*)`.as("n"))
    .where("customer_id", "=", customerId)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The customer's latest private notes, newest first (the admin's customer page). */
export async function listCustomerFeedback(db: Db, customerId: string, limit: number) {
  return db
    .selectFrom("customer_feedback")
    .select(["id", "message", "created_at"])
    .where("customer_id", "=", customerId)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}

/** Locks the customer's user row for the rest of the transaction. */
export async function lockCustomerRow(db: Db, customerId: string) {
  await db.selectFrom("users").select("id").where("id", "=", customerId).forUpdate().executeTakeFirst();
}

/** The customer's review request, if they had it. */
export async function getReviewRequest(db: Db, customerId: string) {
  return db
    .selectFrom("review_requests")
    .select(["requested_at", "visit_id"])
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
}
