import { createHash } from "node:crypto";
import { sql, type Transaction } from "kysely";
import type { Database, DogCount, QuoteRequest, QuoteStatus, YardSize } from "../../db/schema";
import { getDb } from "~/utils/db.server";
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

/** The inbox: newest first, optionally one status, one page at a time. */
export async function listQuoteRequests(options: {
  status?: QuoteStatus;
  page: number;
  pageSize: number;
}): Promise<{ items: QuoteListItem[]; total: number }> {
  const db = await getDb();
  let query = db.selectFrom("quote_requests");
  if (options.status) query = query.where("status", "=", options.status);
  const [items, count] = await Promise.all([
    query
      .select(["id", "name", "service", "dogs", "zip", "outside_service_area", "status", "created_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(count.count) };
}

/** How many requests have each status (the filter shows the counts). */
export async function countQuoteRequestsByStatus(): Promise<Partial<Record<QuoteStatus, number>>> {
  const db = await getDb();
  const rows = await db
    .selectFrom("quote_requests")
    .select(["status", (eb) => eb.fn.countAll<string>().as("count")])
    .groupBy("status")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

export async function updateQuoteRequestStatus(id: string, status: QuoteStatus): Promise<QuoteRequest | undefined> {
  if (!isUuid(id)) return undefined;
  const db = await getDb();
  return db
    .updateTable("quote_requests")
    .set({ status, updated_at: sql<Date>`now()` })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}
