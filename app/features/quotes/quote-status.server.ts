import type { QuoteStatus } from "./quote-constants";
import type { QuoteRequest } from "../../../db/schema";
import { getQuoteRequest, updateQuoteRequestStatus } from "~/models/quote-request.server";

/**
 * The admin's status change of a quote request. A request that became a customer (decision
 * 096) keeps its status (decision 099): its account, plan and the "won" that says so were made
 * together, and the status list would otherwise disagree with the customer page.
 */
export type QuoteStatusChange =
  { ok: true; quote: QuoteRequest } | { ok: false; reason: "missing" } | { ok: false; reason: "converted" };

export async function changeQuoteStatus(quoteId: string, status: QuoteStatus): Promise<QuoteStatusChange> {
  const updated = await updateQuoteRequestStatus(quoteId, status);
  if (updated) return { ok: true, quote: updated };
  // Nothing changed: say why (converted, perhaps a moment ago, or not there at all).
  const quote = await getQuoteRequest(quoteId);
  return quote ? { ok: false, reason: "converted" } : { ok: false, reason: "missing" };
}
