import type { Selectable } from "kysely";
import type { SignUpsTable } from "../../db/schema";
import type { Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export type SignUpRow = Selectable<SignUpsTable>;

/** A new sign-up with its first answers, kept until `expiresAt`. */
export async function insertSignUp(db: Db, answers: Record<string, unknown>, expiresAt: Date): Promise<SignUpRow> {
  return db
    .insertInto("sign_ups")
    .values({ answers: JSON.stringify(answers), expires_at: expiresAt })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A sign-up that has not expired; null for an unknown, expired or malformed id. */
export async function findLiveSignUp(db: Db, id: string, now: Date): Promise<SignUpRow | null> {
  if (!isUuid(id)) return null;
  const row = await db
    .selectFrom("sign_ups")
    .selectAll()
    .where("id", "=", id)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  return row ?? null;
}

/** Locks an unfinished sign-up for its last step (a double submit waits, then finds it finished). */
export async function lockSignUp(db: Db, id: string): Promise<SignUpRow | null> {
  if (!isUuid(id)) return null;
  const row = await db.selectFrom("sign_ups").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row ?? null;
}

/** Replaces the answers of an unfinished sign-up and moves its expiry on. */
export async function saveSignUpAnswers(
  db: Db,
  id: string,
  answers: Record<string, unknown>,
  expiresAt: Date,
  now: Date,
): Promise<void> {
  await db
    .updateTable("sign_ups")
    .set({ answers: JSON.stringify(answers), expires_at: expiresAt, updated_at: now })
    .where("id", "=", id)
    .where("finished_at", "is", null)
    .execute();
}

export async function markSignUpFinished(db: Db, id: string, customerId: string, now: Date): Promise<void> {
  await db
    .updateTable("sign_ups")
    .set({ finished_at: now, customer_id: customerId, updated_at: now })
    .where("id", "=", id)
    .execute();
}

/** Purge: sign-ups past their expiry (finished or not). */
export async function purgeExpiredSignUps(db: Db, now = new Date()): Promise<number> {
  const result = await db.deleteFrom("sign_ups").where("expires_at", "<=", now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
