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
