import { sql } from "kysely";
import type { Db } from "~/utils/db.server";

/** Whether this number replied STOP (and not START since): it is never texted. */
export async function isOptedOut(db: Db, phone: string): Promise<boolean> {
  const row = await db.selectFrom("text_opt_outs").select("phone").where("phone", "=", phone).executeTakeFirst();
  return row !== undefined;
}

/** Records a STOP; a number already opted out keeps its first time. */
export async function recordOptOut(db: Db, phone: string) {
  await db
    .insertInto("text_opt_outs")
    .values({ phone })
    .onConflict((oc) => oc.column("phone").doNothing())
    .execute();
}

/** Records a START: the number may be texted again (with the customer's consent still needed). */
export async function clearOptOut(db: Db, phone: string) {
  await db.deleteFrom("text_opt_outs").where("phone", "=", phone).execute();
}

/**
 * Records an inbound keyword message by its MessageSid; false when it was handled before (a
 * replayed webhook), in which case nothing else may change.
 */
export async function recordTextReply(
  db: Db,
  reply: { messageSid: string; phone: string; keyword: "stop" | "start" | "help" },
) {
  const row = await db
    .insertInto("text_replies")
    .values({ message_sid: reply.messageSid, phone: reply.phone, keyword: reply.keyword })
    .onConflict((oc) => oc.column("message_sid").doNothing())
    .returning(sql<number>`1`.as("inserted"))
    .executeTakeFirst();
  return row !== undefined;
}

/** A "Text me again" request (docs/decisions/109), open until `expiresAt`. */
export async function insertOptInRequest(db: Db, request: { userId: string; phone: string; expiresAt: Date }) {
  return db
    .insertInto("text_opt_in_requests")
    .values({ user_id: request.userId, phone: request.phone, expires_at: request.expiresAt })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The customer's latest "Text me again" request, for Your Yard. */
export async function latestOptInRequest(db: Db, userId: string) {
  return db
    .selectFrom("text_opt_in_requests")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("requested_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Marks confirmed every open request for this number (its START or YES reply) and answers the
 * customers who asked, so that their consent is recorded anew.
 */
export async function confirmOptInRequests(db: Db, phone: string, at: Date) {
  const rows = await db
    .updateTable("text_opt_in_requests")
    .set({ confirmed_at: at })
    .where("phone", "=", phone)
    .where("confirmed_at", "is", null)
    .where("expires_at", ">", at)
    .returning("user_id")
    .execute();
  return [...new Set(rows.map((row) => row.user_id))];
}

/**
 * Deletes the "Text me again" requests that closed more than a day ago (answered or not): the
 * consent they led to is kept on the profile with its time. Answers how many.
 */
export async function purgeClosedOptInRequests(db: Db, now = Date.now()) {
  const result = await db
    .deleteFrom("text_opt_in_requests")
    .where("expires_at", "<", new Date(now - 24 * 60 * 60 * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
