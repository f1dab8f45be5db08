import { createHash } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Database, DogCount, QuoteRequest, QuoteStatus, YardSize } from "../../db/schema";
import { getDb, type Db } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/** The same request posted again within this window is stored once. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;

/** A quote form's fields once validated (app/features/quotes/quote-schema.ts), as stored here. */
export type QuoteRequestInput = {
  name: string;
  phone: string;
  email: string;
  address: string;
  zip: string;
  dogs: DogCount;
  yardSize: YardSize;
  service: string;
  message?: string;
};

export type NewQuoteRequest = QuoteRequestInput & {
  outsideServiceArea: boolean;
  estimateCents: number | null;
  estimateLabel: string | null;
  clientKey: string | null;
};

/**
 * A hash of the request's fields, normalised so that a resubmission with different case or
 * spacing still matches: what makes two posts "the same request".
 */
export function quoteDedupeKey(input: QuoteRequestInput): string {
  const fold = (value: string | undefined) => (value ?? "").replace(/\s+/g, " ").trim().toLowerCase();
  const parts = [
    fold(input.name),
    input.phone.replace(/\D/g, ""),
    fold(input.email),
    fold(input.address),
    input.zip,
    input.dogs,
    input.yardSize,
    input.service,
    fold(input.message),
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/**
 * Stores a quote request, unless the same one arrived within the duplicate window: then the
 * earlier row is returned. A transaction-scoped advisory lock on the key makes two concurrent
 * posts of the same request wait for each other instead of both inserting.
 *
 * `afterInsert` runs in the same transaction, for a new row only (the quote e-mails are queued
 * there, docs/decisions/034): the request and its e-mails commit together or not at all.
 */
export async function createQuoteRequest(
  data: NewQuoteRequest,
  afterInsert?: (trx: Transaction<Database>, quote: QuoteRequest) => Promise<void>,
): Promise<{ quote: QuoteRequest; duplicate: boolean }> {
  const db = await getDb();
  const dedupeKey = quoteDedupeKey(data);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${dedupeKey}, 0))`.execute(trx);
    const existing = await trx
      .selectFrom("quote_requests")
      .selectAll()
      .where("dedupe_key", "=", dedupeKey)
      .where("created_at", ">", new Date(Date.now() - DUPLICATE_WINDOW_MS))
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    if (existing) return { quote: existing, duplicate: true };
    const quote = await trx
      .insertInto("quote_requests")
      .values({
        name: data.name,
        phone: data.phone,
        email: data.email,
        address: data.address,
        zip: data.zip,
        dogs: data.dogs,
        yard_size: data.yardSize,
        service: data.service,
        message: data.message ?? null,
        outside_service_area: data.outsideServiceArea,
        estimate_cents: data.estimateCents,
        estimate_label: data.estimateLabel,
        dedupe_key: dedupeKey,
        client_key: data.clientKey,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await afterInsert?.(trx, quote);
    return { quote, duplicate: false };
  });
}

export async function getQuoteRequest(id: string): Promise<QuoteRequest | undefined> {
  if (!isUuid(id)) return undefined;
  const db = await getDb();
  return db.selectFrom("quote_requests").selectAll().where("id", "=", id).executeTakeFirst();
}

export type QuoteListItem = Pick<
  QuoteRequest,
  "id" | "name" | "service" | "dogs" | "zip" | "outside_service_area" | "status" | "created_at"
>;

/** Where a page of the inbox starts: the first (newest), after or before a request, or the last (oldest). */
export type QuotePageAnchor = { from: "newest" } | { from: "oldest" } | { from: "older" | "newer"; id: string };

/**
 * The inbox, newest first, one page at a time by keyset on (created_at, id): a page "older" than
 * a request holds the rows just below it, "newer" the rows just above it, and "oldest" the last
 * page, read from the other end of the same index (quote_requests_created_at_id_idx or, with a
 * status, quote_requests_status_created_at_id_idx). The cursor is a request's id, compared by
 * its stored (created_at, id), so microseconds never get lost in a URL. No OFFSET: every page
 * costs the same. `hasOlder`/`hasNewer` tell whether more rows lie beyond the page.
 */
export async function listQuoteRequests(options: {
  status?: QuoteStatus;
  anchor: QuotePageAnchor;
  pageSize: number;
}): Promise<{ items: QuoteListItem[]; hasOlder: boolean; hasNewer: boolean; anchorFound: boolean }> {
  const { anchor, pageSize } = options;
  if ((anchor.from === "older" || anchor.from === "newer") && !isUuid(anchor.id)) {
    return { items: [], hasOlder: false, hasNewer: false, anchorFound: false };
  }
  const db = await getDb();
  // Reading towards older rows walks the index backwards (descending); towards newer, forwards.
  const descending = anchor.from === "newest" || anchor.from === "older";
  let query = db
    .selectFrom("quote_requests")
    .select(["id", "name", "service", "dogs", "zip", "outside_service_area", "status", "created_at"]);
  if (options.status) query = query.where("status", "=", options.status);
  if (anchor.from === "older" || anchor.from === "newer") {
    const cursor = sql`(select c.created_at, c.id from quote_requests c where c.id = ${anchor.id})`;
    query = query.where(sql<boolean>`(created_at, id) ${sql.raw(descending ? "<" : ">")} ${cursor}`);
  }
  const direction = descending ? "desc" : "asc";
  const rows = await query
    .orderBy("created_at", direction)
    .orderBy("id", direction)
    .limit(pageSize + 1)
    .execute();
  const beyond = rows.length > pageSize;
  const page = rows.slice(0, pageSize);
  if (!descending) page.reverse();
  let anchorFound = true;
  if ((anchor.from === "older" || anchor.from === "newer") && page.length === 0) {
    anchorFound = Boolean(
      await db.selectFrom("quote_requests").select("id").where("id", "=", anchor.id).executeTakeFirst(),
    );
  }
  return {
    items: page,
    anchorFound,
    // Beyond the page in the reading direction; behind it, there is more unless it is an end.
    hasOlder: descending ? beyond : anchor.from === "newer",
    hasNewer: descending ? anchor.from === "older" : beyond,
  };
}

/** Counts shown beside the filters stop here ("1,000+"): counting every row would cost more than the page. */
export const QUOTE_COUNT_CAP = 1000;

/**
 * How many requests have each status, and in all, each counted up to QUOTE_COUNT_CAP + 1 rows
 * of an index (the filter shows the counts). Bounded, so the inbox costs the same at any size.
 */
export async function countQuoteRequestsByStatus(
  statuses: readonly QuoteStatus[],
): Promise<{ all: number; byStatus: Partial<Record<QuoteStatus, number>> }> {
  const db = await getDb();
  const capped = (status: QuoteStatus | null) =>
    sql<number>`(select count(*)::int from (select 1 from quote_requests ${
      status ? sql`where status = ${status}` : sql``
    } limit ${QUOTE_COUNT_CAP + 1}) capped)`;
  const row = await db
    .selectNoFrom([capped(null).as("all"), ...statuses.map((status, i) => capped(status).as(`s${i}`))])
    .executeTakeFirstOrThrow();
  const counts = row as unknown as Record<string, number>;
  return {
    all: Number(counts.all),
    byStatus: Object.fromEntries(statuses.map((status, i) => [status, Number(counts[`s${i}`])])),
  };
}

/**
 * Sets the status of a request that has not become a customer (decision 099: a converted
 * request's status is fixed). Undefined when there is no such request, or it is converted: the
 * check is in the UPDATE, so a conversion committed meanwhile wins.
 */
export async function updateQuoteRequestStatus(id: string, status: QuoteStatus): Promise<QuoteRequest | undefined> {
  if (!isUuid(id)) return undefined;
  const db = await getDb();
  return db
    .updateTable("quote_requests")
    .set({ status, updated_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where("converted_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

/** The request, locked until the transaction ends: two conversions of one request take turns. */
export async function lockQuoteRequest(db: Db, id: string): Promise<QuoteRequest | undefined> {
  if (!isUuid(id)) return undefined;
  return db.selectFrom("quote_requests").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/** The request became `customerId`'s plan: marked won and linked to the account. */
export async function markQuoteConverted(db: Db, id: string, customerId: string, existed: boolean) {
  await db
    .updateTable("quote_requests")
    .set({
      status: "won",
      customer_id: customerId,
      customer_existed: existed,
      converted_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where("id", "=", id)
    .execute();
}
