import type { Db } from "~/utils/db.server";

/**
 * The visit "On my way" is about, locked for the rest of the transaction (two presses at once
 * answer one after the other), with what the notice needs: the customer's address and, for
 * texts, their mobile number and consent. Never the gate code.
 */
export async function lockVisitForOnMyWay(trx: Db, visitId: string) {
  return trx
    .selectFrom("services")
    .innerJoin("users", "users.id", "services.customer_id")
    .leftJoin("profiles", "profiles.user_id", "services.customer_id")
    .leftJoin("yard_profiles", "yard_profiles.user_id", "services.customer_id")
    .select([
      "services.id",
      "services.customer_id",
      "services.service_type",
      "services.service_date",
      "services.status",
      "services.on_my_way_at",
      "users.email as customer_email",
      "profiles.full_name as customer_name",
      "yard_profiles.mobile_phone",
      "yard_profiles.text_consent_at",
    ])
    .where("services.id", "=", visitId)
    .forUpdate("services")
    .executeTakeFirst();
}

export async function markOnMyWay(trx: Db, visitId: string, at: Date) {
  await trx.updateTable("services").set({ on_my_way_at: at }).where("id", "=", visitId).execute();
}

export async function findOnMyWayState(db: Db, visitId: string) {
  return db
    .selectFrom("services")
    .select(["status", "service_date", "on_my_way_at"])
    .where("id", "=", visitId)
    .executeTakeFirst();
}
