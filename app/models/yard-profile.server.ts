import type { Insertable, Selectable } from "kysely";
import type { YardProfilesTable } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export type YardProfile = Selectable<YardProfilesTable>;
export type YardProfileValues = Omit<Insertable<YardProfilesTable>, "user_id" | "updated_at">;

/** The full profile, gate code included: only for the customer themself and for admins. */
export async function getYardProfile(userId: string, db?: Db): Promise<YardProfile | null> {
  if (!isUuid(userId)) return null;
  const handle = db ?? (await getDb());
  return (
    (await handle.selectFrom("yard_profiles").selectAll().where("user_id", "=", userId).executeTakeFirst()) ?? null
  );
}

export async function saveYardProfile(userId: string, values: YardProfileValues): Promise<YardProfile> {
  const db = await getDb();
  return db
    .insertInto("yard_profiles")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...values, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Whether the customer wants the completion and missed e-mails (on unless they turned it off). */
export async function wantsVisitEmails(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("yard_profiles")
    .select("notify_visit_emails")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.notify_visit_emails ?? true;
}

/** A first yard profile (from a quote request); an account that has one keeps it as it is. */
export async function insertYardProfileIfMissing(db: Db, userId: string, values: YardProfileValues) {
  await db
    .insertInto("yard_profiles")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
}
