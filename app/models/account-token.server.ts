import { sql } from "kysely";
import type { TokenPurpose } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";

/**
 * Stores a single-use token (its hash only) and drops the account's older ones of that purpose.
 * Pass a transaction to store it with the change it belongs to (an account made from a quote).
 */
export async function insertAccountToken(
  input: {
    userId: string;
    purpose: TokenPurpose;
    tokenHash: string;
    expiresAt: Date;
  },
  handle?: Db,
) {
  const db = handle ?? (await getDb());
  const write = async (trx: Db) => {
    await trx
      .deleteFrom("account_tokens")
      .where("user_id", "=", input.userId)
      .where("purpose", "=", input.purpose)
      .where((eb) => eb.or([eb("used_at", "is not", null), eb("expires_at", "<=", new Date())]))
      .execute();
    await trx
      .insertInto("account_tokens")
      .values({
        token_hash: input.tokenHash,
        user_id: input.userId,
        purpose: input.purpose,
        expires_at: input.expiresAt,
      })
      .execute();
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

/** The account a live (unused, unexpired) token belongs to, without using it. */
export async function findLiveAccountToken(purpose: TokenPurpose, tokenHash: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("account_tokens")
    .select("user_id")
    .where("token_hash", "=", tokenHash)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * Uses a live token in one statement, so two requests racing with the same link cannot both
 * win. Returns the account's id, or null when the token is unknown, used or expired.
 */
export async function consumeAccountToken(purpose: TokenPurpose, tokenHash: string): Promise<string | null> {
  const db = await getDb();
  const row = await db
    .updateTable("account_tokens")
    .set({ used_at: sql<Date>`now()` })
    .where("token_hash", "=", tokenHash)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Purge job (app/features/jobs/job-runs.server.ts): account links a day past their expiry. */
export async function purgeExpiredAccountTokens(): Promise<number> {
  const db = await getDb();
  const result = await db
    .deleteFrom("account_tokens")
    .where("expires_at", "<", new Date(Date.now() - 24 * 60 * 60 * 1000))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
