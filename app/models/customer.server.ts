import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

export type CustomerRow = { id: string; email: string; full_name: string | null; created_at: Date };
export type CustomerCursor = { email: string; id: string };

/** `%` and `_` typed by the admin are letters, not wildcards. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The admin's customer search: users without the admin role whose e-mail or name contains `q`
 * (ILIKE), in e-mail order, keyset-paged on (email, id). Without `q` it walks users in e-mail
 * order (users_email_lower_key cannot serve `email` order; see docs/decisions/033).
 */
export async function searchCustomers(options: { q?: string; after?: CustomerCursor | null; limit: number }) {
  const db = await getDb();
  let query = db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.created_at"])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("user_roles")
            .select("user_roles.role")
            .whereRef("user_roles.user_id", "=", "users.id")
            .where("user_roles.role", "=", "admin"),
        ),
      ),
    );
  if (options.q) {
    const pattern = likePattern(options.q);
    query = query.where((eb) =>
      eb.or([eb("users.email", "ilike", pattern), eb("profiles.full_name", "ilike", pattern)]),
    );
  }
  if (options.after) {
    query = query.where(sql<boolean>`(users.email, users.id) > (${options.after.email}, ${options.after.id})`);
  }
  return query.orderBy("users.email").orderBy("users.id").limit(options.limit).execute() as Promise<CustomerRow[]>;
}

/** A customer (never an admin) by id, or null. */
export async function getCustomer(id: string): Promise<CustomerRow | null> {
  if (!isUuid(id)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.created_at"])
    .where("users.id", "=", id)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("user_roles")
            .select("user_roles.role")
            .whereRef("user_roles.user_id", "=", "users.id")
            .where("user_roles.role", "=", "admin"),
        ),
      ),
    )
    .executeTakeFirst();
  return row ?? null;
}

/** The quote requests sent from this e-mail address (any case), newest first. */
export async function listQuoteRequestsByEmail(email: string, limit = 20) {
  const db = await getDb();
  return db
    .selectFrom("quote_requests")
    .select(["id", "name", "service", "status", "created_at"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .orderBy(sql`lower(email)`)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}
