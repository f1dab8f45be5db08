import { sql } from "kysely";
import { getDb } from "~/utils/db.server";

/** The account's TOTP row: pending (enabledAt null) while enrolling, on once enabledAt is set. */
export async function findTotp(userId: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("user_totp")
    .select(["secret", "enabled_at", "last_used_step"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { secret: row.secret, enabledAt: row.enabled_at, lastUsedStep: row.last_used_step } : null;
}

/**
 * Records that the code of `step` was used, only if no code of this or a later step was used
 * before: true when this use is the first. One statement, so two racing uses cannot both win.
 */
export async function claimTotpStep(userId: string, step: number): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .updateTable("user_totp")
    .set({ last_used_step: step })
    .where("user_id", "=", userId)
    .where((eb) => eb.or([eb("last_used_step", "is", null), eb("last_used_step", "<", step)]))
    .returning("user_id")
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Turns two-step on with `secret` (whose code of `usedStep` was just shown right, so it cannot
 * serve again) and its hashed recovery codes, replacing any old ones. Returns when it was
 * turned on (the database's clock), or null when it was on already.
 */
export async function enableTotp(input: {
  userId: string;
  secret: string;
  usedStep: number;
  recoveryCodeHashes: string[];
}): Promise<Date | null> {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const values = { secret: input.secret, enabled_at: sql<Date>`now()`, last_used_step: input.usedStep };
    const row = await trx
      .insertInto("user_totp")
      .values({ user_id: input.userId, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values).where("user_totp.enabled_at", "is", null))
      .returning("enabled_at")
      .executeTakeFirst();
    if (!row?.enabled_at) return null;
    await trx.deleteFrom("recovery_codes").where("user_id", "=", input.userId).execute();
    await trx
      .insertInto("recovery_codes")
      .values(input.recoveryCodeHashes.map((code_hash) => ({ user_id: input.userId, code_hash })))
      .execute();
    return new Date(row.enabled_at);
  });
}

export async function deleteTotp(userId: string) {
  const db = await getDb();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("user_totp").where("user_id", "=", userId).execute();
    await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  });
}

/** Uses an unused recovery code: true the first time, false ever after. */
export async function claimRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
  const db = await getDb();
  const row = await db
    .updateTable("recovery_codes")
    .set({ used_at: sql<Date>`now()` })
    .where("user_id", "=", userId)
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .returning("user_id")
    .executeTakeFirst();
  return Boolean(row);
}

export async function countUnusedRecoveryCodes(userId: string): Promise<number> {
  const db = await getDb();
  const row = await db
    .selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertSignInChallenge(input: { idHash: string; userId: string; expiresAt: Date }) {
  const db = await getDb();
  await db
    .insertInto("sign_in_challenges")
    .values({ id_hash: input.idHash, user_id: input.userId, expires_at: input.expiresAt })
    .execute();
}

export async function findSignInChallenge(idHash: string) {
  const db = await getDb();
  const row = await db
    .selectFrom("sign_in_challenges")
    .select(["user_id", "failed_attempts"])
    .where("id_hash", "=", idHash)
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  return row ? { userId: row.user_id, failedAttempts: row.failed_attempts } : null;
}

/**
 * Claims one attempt of a live challenge before its code is checked, in one statement: null
 * when the challenge is gone, expired or has used its `max` attempts (so parallel posts cannot
 * all pass a count read before any of them wrote it).
 */
export async function claimChallengeAttempt(idHash: string, max: number) {
  const db = await getDb();
  const row = await db
    .updateTable("sign_in_challenges")
    .set({ failed_attempts: sql<number>`failed_attempts + 1` })
    .where("id_hash", "=", idHash)
    .where("failed_attempts", "<", max)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning(["user_id", "failed_attempts"])
    .executeTakeFirst();
  return row ? { userId: row.user_id, attempts: row.failed_attempts } : null;
}

/** Ends every pending second step of the account (two-step turned on or off). */
export async function deleteSignInChallengesOf(userId: string) {
  const db = await getDb();
  await db.deleteFrom("sign_in_challenges").where("user_id", "=", userId).execute();
}

/** Ends a challenge; true when it still existed (so exactly one request can finish it). */
export async function deleteSignInChallenge(idHash: string): Promise<boolean> {
  const db = await getDb();
  const result = await db.deleteFrom("sign_in_challenges").where("id_hash", "=", idHash).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Purge job (app/features/jobs/job-runs.server.ts): second steps nobody finished before they expired. */
export async function purgeExpiredSignInChallenges(): Promise<number> {
  const db = await getDb();
  const result = await db.deleteFrom("sign_in_challenges").where("expires_at", "<=", new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
