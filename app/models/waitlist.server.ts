import { sql } from "kysely";
import type { Db } from "~/utils/db.server";

/** Adds an address to the waitlist for a ZIP; the same address and ZIP again stores nothing. */
export async function insertWaitlistEntry(db: Db, email: string, zip: string): Promise<boolean> {
  const row = await db
    .insertInto("waitlist_entries")
    .values({ email: email.trim(), zip })
    .onConflict((oc) => oc.expression(sql`lower(email), zip`).doNothing())
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

export type WaitlistCursor = { createdAt: string; id: string };

/** The owner's list, newest first, `limit` at a time (keyset paging), optionally for one ZIP. */
export async function listWaitlist(db: Db, options: { limit: number; zip?: string; after?: WaitlistCursor }) {
  let query = db.selectFrom("waitlist_entries").select(["id", "email", "zip", "created_at"]);
  if (options.zip) query = query.where("zip", "=", options.zip);
  if (options.after) {
    const { createdAt, id } = options.after;
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", new Date(createdAt)),
        eb.and([eb("created_at", "=", new Date(createdAt)), eb("id", "<", id)]),
      ]),
    );
  }
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(options.limit).execute();
}

/** How many wait for each ZIP, most first (the owner's "which area to open next"). */
export async function countWaitlistByZip(db: Db, limit: number) {
  return db
    .selectFrom("waitlist_entries")
    .select(["zip", (eb) => eb.fn.countAll<string>().as("entries")])
    .groupBy("zip")
    .orderBy("entries", "desc")
    .orderBy("zip")
    .limit(limit)
    .execute();
}
