import { sql, type Kysely } from "kysely";

// Frozen: this migration states the lists it checks as they were when it first ran (see
// 0001-initial.ts). The live list is TOKEN_PURPOSES in app/features/accounts/account-constants.ts.
const TOKEN_PURPOSES = ["verify-email", "reset-password"];

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

export async function up(db: Kysely<any>) {
  await db.schema.alterTable("users").addColumn("email_verified_at", "timestamptz").execute();
  // An account that only ever signed in through Google/Facebook has an address the provider
  // proved; an account with a password has not proved anything yet.
  await sql`update users set email_verified_at = now()
    where password_hash is null and exists (select 1 from oauth_accounts o where o.user_id = users.id)`.execute(db);

  // Single-use links sent by e-mail; only the SHA-256 of the token is stored.
  await db.schema
    .createTable("account_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull().check(oneOf("purpose", TOKEN_PURPOSES)))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("account_tokens_user_id_idx").on("account_tokens").column("user_id").execute();

  // One TOTP secret per account: pending while enabled_at is null (enrolment started), on after.
  // last_used_step makes every code single-use (a step is accepted only above the last one).
  await db.schema
    .createTable("user_totp")
    .addColumn("user_id", "uuid", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled_at", "timestamptz")
    .addColumn("last_used_step", "integer")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("recovery_codes_pkey", ["user_id", "code_hash"])
    .execute();

  // A password that was right, waiting for its second step. Not a session: it grants nothing.
  await db.schema
    .createTable("sign_in_challenges")
    .addColumn("id_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("sign_in_challenges_user_id_idx").on("sign_in_challenges").column("user_id").execute();
}

export async function down(db: Kysely<any>) {
  for (const table of ["sign_in_challenges", "recovery_codes", "user_totp", "account_tokens"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
