import { sql } from "kysely";
import { getDb, type Db } from "~/utils/db.server";
import { isNotStaff } from "./user-roles.server";
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
/** How far a common term's walk of the e-mail order goes before it sorts the matches instead. */
const WALK_ROWS = 500;

type SearchOptions = {
  q?: string;
  /** Only customers without a plan that is not cancelled (users_without_open_plan_email_idx). */
  withoutPlan?: boolean;
  after?: CustomerCursor | null;
  limit: number;
};

const cursorEmail = (after: CustomerCursor) => after.email.replace(/\0/g, "").toLowerCase();

/**
 * The admin's customer search (the Customers list and the Create Service picker): users without
 * the admin role whose e-mail or name contains `q`, in lower-case e-mail order, keyset-paged
 * after a cursor. E-mails are unique whatever their case, so `lower(email)` alone orders them and
 * `users_email_lower_key` serves the order. With `q`: up to 1,000 matching ids from the pg_trgm
 * indexes of migration 0006 (one query per side, so each uses its own index), fetched by key and
 * sorted. A term matching more walks the e-mail order, but only its first 500 rows: a common
 * term whose matches sit deep in the order ("customer99" at 100k) would otherwise walk nearly
 * all of it (2 s); past them, its matches are sorted from the trigram indexes instead (top-N).
 * See docs/decisions/064 and 110.
 */
export async function searchCustomers(options: SearchOptions) {
  const db = await getDb();
  const match = options.q ? await matchCustomers(options.q) : null;
  if (!match || "ids" in match) return customersInOrder(db, options, match?.ids ?? null);
  const bound = await walkBound(db, options);
  const walked = await walkMatches(db, options, match.pattern, bound);
  // Enough matches within the walk, or the walk reached the end: that is the page.
  if (walked.length >= options.limit || bound === null) return walked;
  return sortedMatches(db, options, match.pattern);
}

/** The e-mail WALK_ROWS rows into the order the page walks, or null when it has fewer rows. */
async function walkBound(db: Db, options: SearchOptions) {
  let query = db.selectFrom("users").select(sql<string>`lower(users.email)`.as("email_order"));
  if (options.withoutPlan) query = query.where(sql<boolean>`not users.has_open_plan`);
  if (options.after) query = query.where(sql<string>`lower(users.email)`, ">", cursorEmail(options.after));
  const row = await query
    .orderBy(sql`lower(users.email)`)
    .offset(WALK_ROWS - 1)
    .limit(1)
    .executeTakeFirst();
  return row?.email_order ?? null;
}

/** Users in e-mail order: all of them, or the matching ids. */
async function customersInOrder(db: Db, options: SearchOptions, ids: string[] | null) {
  if (ids && ids.length === 0) return [];
  let query = db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.created_at", "users.email_verified_at"])
    .where(isNotStaff);
  // The flag the database keeps (migration 0010), so that the filter walks its own partial
  // index in e-mail order however few customers are without a plan (decision 094).
  if (options.withoutPlan) query = query.where(sql<boolean>`not users.has_open_plan`);
  if (ids) query = query.where("users.id", "in", ids);
  if (options.after) query = query.where(sql<string>`lower(users.email)`, ">", cursorEmail(options.after));
  return query
    .orderBy(sql`lower(users.email)`)
    .limit(options.limit)
    .execute() as Promise<CustomerRow[]>;
}

/**
 * A common term ("gmail"): matches are dense, so walking users in e-mail order and testing each
 * row reaches the page's LIMIT after a few rows, where sorting every match would not. The walk
 * stops at `bound`. The name is read per row walked (a subquery by key): a join let the planner
 * hash all 100k profiles for a 500-row walk.
 */
async function walkMatches(db: Db, options: SearchOptions, pattern: string, bound: string | null) {
  const fullName = sql<string | null>`(select profiles.full_name from profiles where profiles.user_id = users.id)`;
  let query = db
    .selectFrom("users")
    .select(["users.id", "users.email", fullName.as("full_name"), "users.created_at", "users.email_verified_at"])
    .where(isNotStaff)
    .where((eb) => eb.or([eb(sql`lower(users.email)`, "like", pattern), eb(sql`lower(${fullName})`, "like", pattern)]));
  if (options.withoutPlan) query = query.where(sql<boolean>`not users.has_open_plan`);
  if (options.after) query = query.where(sql<string>`lower(users.email)`, ">", cursorEmail(options.after));
  if (bound !== null) query = query.where(sql<string>`lower(users.email)`, "<=", bound);
  return query
    .orderBy(sql`lower(users.email)`)
    .limit(options.limit)
    .execute() as Promise<CustomerRow[]>;
}

/**
 * A common term's page when its matches are sparse at the front of the order: every match, from
 * the trigram indexes (e-mails from their own rows, names joined to their user by key), sorted by
 * e-mail keeping only the page (a top-N sort), then those rows fetched by key. Its cost grows
 * with the number of matches, not with how deep in the order they sit.
 */
async function sortedMatches(db: Db, options: SearchOptions, pattern: string) {
  const conditions = [sql`not exists (select 1 from user_roles r where r.user_id = m.id)`];
  if (options.withoutPlan) conditions.push(sql`not m.has_open_plan`);
  if (options.after) conditions.push(sql`m.email_order > ${cursorEmail(options.after)}`);
  const page = sql<string>`select m.id from (
      select id, lower(email) as email_order, has_open_plan from users where lower(email) like ${pattern}
      union
      select u.id, lower(u.email), u.has_open_plan from profiles p join users u on u.id = p.user_id
        where lower(p.full_name) like ${pattern}
    ) m where ${sql.join(conditions, sql` and `)} order by m.email_order limit ${options.limit}`;
  return db
    .selectFrom("users")
    .leftJoin("profiles", "profiles.user_id", "users.id")
    .select(["users.id", "users.email", "profiles.full_name", "users.created_at", "users.email_verified_at"])
    .where(sql<boolean>`users.id in (${page})`)
    .orderBy(sql`lower(users.email)`)
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
    .where(isNotStaff)
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
