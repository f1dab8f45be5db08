import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { isNotAdmin } from "./user-roles.server";
import { isUuid } from "~/utils/uuid";

export type CustomerRow = {
  id: string;
  email: string;
  full_name: string | null;
  created_at: Date;
  email_verified_at: Date | null;
};
export type CustomerCursor = { email: string; id: string };

/**
 * `%` and `_` typed by the admin are letters, not wildcards; matching ignores case. PostgreSQL
 * text cannot hold NUL, so a NUL typed into the URL is dropped rather than failing the query.
 */
const likePattern = (q: string) =>
  `%${q
    .replace(/\0/g, "")
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Beyond this many matching users a term counts as common (see searchCustomers). */
const MATCH_SET_CAP = 1000;

/**
 * The admin's customer search (the Customers list and the Create Service picker): users without
 * the admin role whose e-mail or name contains `q`, in lower-case e-mail order, keyset-paged
 * after a cursor. E-mails are unique whatever their case, so `lower(email)` alone orders them and
 * `users_email_lower_key` serves the order. With `q`: up to 1,000 matching ids from the pg_trgm
 * indexes of migration 0006 (one query per side, so each uses its own index), fetched by key and
 * sorted; a term matching more walks the e-mail order instead. See docs/decisions/064.
 */
export async function searchCustomers(options: {
  q?: string;
  /** Only customers without a plan that is not cancelled (users_without_open_plan_email_idx). */
  withoutPlan?: boolean;
  after?: CustomerCursor | null;
  limit: number;
}) {
  const db = await getDb();
  const match = options.q ? await matchCustomers(options.q) : null;
  let query = db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.created_at", "users.email_verified_at"])
    .where(isNotAdmin);
  // The flag the database keeps (migration 0010), so that the filter walks its own partial
  // index in e-mail order however few customers are without a plan (decision 094).
  if (options.withoutPlan) query = query.where(sql<boolean>`not users.has_open_plan`);
  if (match && "ids" in match) {
    if (match.ids.length === 0) return [];
    query = query.where("users.id", "in", match.ids);
  } else if (match) {
    // A common term ("gmail"): matches are dense, so walking users in e-mail order and
    // testing each row reaches the page's LIMIT after a few rows, where sorting every match
    // would not.
    const { pattern } = match;
    query = query.where((eb) =>
      eb.or([eb(sql`lower(users.email)`, "like", pattern), eb(sql`lower(profiles.full_name)`, "like", pattern)]),
    );
  }
  if (options.after) {
    query = query.where(sql<string>`lower(users.email)`, ">", options.after.email.replace(/\0/g, "").toLowerCase());
  }
  return query
    .orderBy(sql`lower(users.email)`)
    .limit(options.limit)
    .execute() as Promise<CustomerRow[]>;
}

/**
 * Who a search term names: the ids of the users whose e-mail or name contains it, when they
 * are at most 1,000 (a term that names a few customers, the usual case, served by the pg_trgm
 * indexes); else the LIKE pattern, for a query that tests each row it walks in its own order.
 * Shared by the Customers list and the Visits list's customer filter.
 */
export type CustomerMatch = { ids: string[] } | { pattern: string };

export async function matchCustomers(q: string): Promise<CustomerMatch> {
  const db = await getDb();
  const pattern = likePattern(q);
  const found = await sql<{ id: string }>`select id from users where lower(email) like ${pattern}
    union all select user_id from profiles where lower(full_name) like ${pattern}
    limit ${MATCH_SET_CAP + 1}`.execute(db);
  if (found.rows.length > MATCH_SET_CAP) return { pattern };
  return { ids: [...new Set(found.rows.map((r) => r.id))] };
}

/** A customer (never an admin) by id, or null. */
export async function getCustomer(id: string): Promise<CustomerRow | null> {
  if (!isUuid(id)) return null;
  const db = await getDb();
  const row = await db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.created_at", "users.email_verified_at"])
    .where("users.id", "=", id)
    .where(isNotAdmin)
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
