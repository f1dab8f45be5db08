import type { QuoteRequest } from "../../../db/schema";
import { getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import { OUTBOX_STATUS_LABELS, type OutboxStatus } from "~/features/outbox/outbox-constants";
import { listOutboxFor, lockAndFindRecentOutboxTo, outboxStatusesFor } from "~/models/outbox.server";
import type { Db } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { ownerQuoteEmail, visitorQuoteEmail, type QuoteEmailContext } from "./quote-emails.server";
import { formatQuoteTime } from "./quote-format";

/**
 * E-mail about quote requests goes through the outbox (docs/decisions/031, 034): both messages
 * are stored in the transaction that stores the request, and the outbox worker sends them
 * after the visitor has had their answer, retrying with backoff while the mail server is down.
 */

/** What the e-mails need from content; read before the transaction, so it holds no lock while Sanity answers. */
export async function quoteEmailContext(service: string): Promise<QuoteEmailContext> {
  const [settings, options] = await Promise.all([getSiteSettings(), getQuoteServiceOptions()]);
  const serviceLabel = options.find((option) => option.value === service)?.label ?? service;
  return { settings, serviceLabel, siteUrl: getEnv().SITE_URL };
}

/** At most one confirmation per address per 24 hours, whoever fills in the form (no mail relay). */
export const CONFIRMATION_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Queues the business's notification and, unless this address had one in the last 24 hours,
 * the visitor's confirmation. Call inside the transaction that stored `quote`.
 */
export async function queueQuoteEmails(trx: Db, quote: QuoteRequest, context: QuoteEmailContext) {
  await enqueueEmail(trx, {
    kind: "quote_owner",
    ...ownerQuoteEmail(quote, context),
    relatedId: quote.id,
    dedupeKey: `quote-owner:${quote.id}`,
  });
  const since = new Date(Date.now() - CONFIRMATION_WINDOW_MS);
  if (await lockAndFindRecentOutboxTo(trx, "quote_visitor", quote.email, since)) {
    log.info("quote.confirmation_skipped", { quoteId: quote.id, reason: "one per address per day" });
    return;
  }
  await enqueueEmail(trx, {
    kind: "quote_visitor",
    ...visitorQuoteEmail(quote, context),
    relatedId: quote.id,
    dedupeKey: `quote-visitor:${quote.id}`,
  });
}

export type QuoteEmailStatus = {
  status: OutboxStatus;
  label: string;
  attempts: number;
  error: string | null;
  sentAt: string | null;
};

export type QuoteEmailStatuses = {
  /** The notification to the business; null for none on record. */
  owner: QuoteEmailStatus | null;
  /** The visitor's confirmation; null when none was queued (one per address per 24 hours). */
  visitor: QuoteEmailStatus | null;
};

/** For the request's admin page: where its two e-mails stand, read from the outbox. */
export async function getQuoteEmailStatuses(quoteId: string): Promise<QuoteEmailStatuses> {
  const rows = await listOutboxFor(quoteId);
  const shown = (kind: "quote_owner" | "quote_visitor"): QuoteEmailStatus | null => {
    const row = rows.find((r) => r.kind === kind);
    if (!row) return null;
    return {
      status: row.status,
      label: OUTBOX_STATUS_LABELS[row.status],
      attempts: row.attempts,
      error: row.last_error,
      sentAt: row.sent_at ? formatQuoteTime(row.sent_at) : null,
    };
  };
  return { owner: shown("quote_owner"), visitor: shown("quote_visitor") };
}

/** For the inbox list: each request's e-mail to the business, as a label (no row: not in the map). */
export async function listQuoteOwnerEmailStatuses(quoteIds: string[]): Promise<Map<string, string>> {
  const rows = await outboxStatusesFor(quoteIds, "quote_owner");
  return new Map(rows.map((row) => [row.related_id ?? "", OUTBOX_STATUS_LABELS[row.status]]));
}
