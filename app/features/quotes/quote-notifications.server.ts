import { createHmac } from "node:crypto";
import type { QuoteRequest } from "../../../db/schema";
import { hitRateLimit } from "~/models/rate-limit.server";
import { getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import {
  claimQuoteNotifications,
  markQuoteNotificationFailed,
  markQuoteNotificationSent,
  markQuoteNotificationSkipped,
} from "~/models/quote-request.server";
import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { isMailConfigured, sendMail } from "~/utils/mailer.server";
import { ownerQuoteEmail, visitorQuoteEmail, type QuoteEmailContext } from "./quote-emails.server";

/**
 * E-mail about quote requests. The request is always stored first; a send that fails leaves it
 * 'failed' with the error and is retried: right after the next request that does get through
 * (the server is evidently back), by a periodic in-process retry, and by `npm run quotes:retry`.
 *
 * The status follows the e-mail to the business, the one that must not be lost. The visitor's
 * confirmation is a courtesy: if only that one fails, the request is 'sent' and the error kept
 * in notification_error (resending would mail the owner twice).
 */

type DeliveryContext = QuoteEmailContext & { from: string | { name: string; address: string } };

async function emailContext(quote: QuoteRequest): Promise<DeliveryContext> {
  const [settings, options] = await Promise.all([getSiteSettings(), getQuoteServiceOptions()]);
  const serviceLabel = options.find((option) => option.value === quote.service)?.label ?? quote.service;
  const env = getEnv();
  // Without MAIL_FROM the business's own address (content) sends, under its name.
  const from = env.MAIL_FROM ?? { name: settings.businessName, address: settings.email };
  return { settings, serviceLabel, siteUrl: env.SITE_URL, from };
}

/** At most one confirmation per address per 24 hours, whoever fills in the form. */
export const CONFIRMATION_LIMIT = { limit: 1, windowMs: 24 * 60 * 60 * 1000 };

async function mayConfirmTo(email: string) {
  // Keyed by a keyed hash: the table holds no visitor's address in clear.
  const key = createHmac("sha256", getEnv().SESSION_SECRET)
    .update(`quote-confirmation:${email.trim().toLowerCase()}`)
    .digest("hex")
    .slice(0, 32);
  return (await hitRateLimit(`quote-confirmation:${key}`, CONFIRMATION_LIMIT)).allowed;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)) || "Unknown error";

/** Sends both e-mails of one claimed request and records the outcome. */
async function deliver(quote: QuoteRequest): Promise<boolean> {
  let context: DeliveryContext;
  try {
    context = await emailContext(quote);
    await sendMail({ ...ownerQuoteEmail(quote, context), from: context.from });
  } catch (error) {
    await markQuoteNotificationFailed(quote.id, describe(error));
    log.warn("quote.notification_failed", {
      quoteId: quote.id,
      attempts: quote.notification_attempts,
      ...errorFields(error),
    });
    return false;
  }
  let warning: string | undefined;
  try {
    if (await mayConfirmTo(quote.email)) await sendMail({ ...visitorQuoteEmail(quote, context), from: context.from });
    else log.info("quote.confirmation_skipped", { quoteId: quote.id, reason: "one per address per day" });
  } catch (error) {
    warning = `Confirmation to the visitor failed: ${describe(error)}`;
    log.warn("quote.confirmation_failed", { quoteId: quote.id, ...errorFields(error) });
  }
  await markQuoteNotificationSent(quote.id, warning);
  log.info("quote.notification_sent", { quoteId: quote.id, attempts: quote.notification_attempts });
  return true;
}

/** Right after a request is stored: 'skipped' without SMTP, else sent now (and the backlog after it). */
export async function notifyNewQuoteRequest(quoteId: string): Promise<"sent" | "failed" | "skipped" | "busy"> {
  if (!isMailConfigured()) {
    await markQuoteNotificationSkipped(quoteId);
    return "skipped";
  }
  ensureQuoteNotificationRetries();
  const [claimed] = await claimQuoteNotifications({ ids: [quoteId], due: false, limit: 1 });
  // Already sent or being sent by another process.
  if (!claimed) return "busy";
  const sent = await deliver(claimed);
  if (sent) {
    // The server takes mail again: flush what failed before, a few at a time, without backoff.
    await retryUnsentQuoteNotifications({ due: false, limit: 5 }).catch((error) =>
      log.error("quote.retry_failed", errorFields(error)),
    );
  }
  return sent ? "sent" : "failed";
}

export type RetryResult = { sent: number; failed: number };

/**
 * Sends the notifications still unsent. By default only those whose backoff has passed (the
 * periodic retry); `due: false` sends every unsent one now (the script, or after a success).
 */
export async function retryUnsentQuoteNotifications(
  options: { due?: boolean; limit?: number } = {},
): Promise<RetryResult> {
  const result: RetryResult = { sent: 0, failed: 0 };
  if (!isMailConfigured()) return result;
  const claimed = await claimQuoteNotifications({ due: options.due ?? true, limit: options.limit ?? 20 });
  for (const quote of claimed) {
    if (await deliver(quote)) result.sent += 1;
    else result.failed += 1;
  }
  if (claimed.length > 0) log.info("quote.retry", { ...result });
  return result;
}

const RETRY_INTERVAL_MS = 60_000;
let retryTimer: ReturnType<typeof setInterval> | undefined;
let retryRunning = false;

/**
 * Starts the periodic retry once per process. unref'd: it never keeps a process (a script, a
 * test run) alive. Overlapping runs are skipped.
 */
export function startQuoteNotificationRetries(intervalMs = RETRY_INTERVAL_MS): () => void {
  if (!retryTimer) {
    retryTimer = setInterval(() => {
      if (retryRunning) return;
      retryRunning = true;
      retryUnsentQuoteNotifications()
        .catch((error) => log.error("quote.retry_failed", errorFields(error)))
        .finally(() => {
          retryRunning = false;
        });
    }, intervalMs);
    retryTimer.unref();
  }
  return stopQuoteNotificationRetries;
}

export function stopQuoteNotificationRetries() {
  if (retryTimer) clearInterval(retryTimer);
  retryTimer = undefined;
}

/** Called at server start (entry.server) and on first use by the contact action; tests start it explicitly. */
export function ensureQuoteNotificationRetries() {
  if (getEnv().NODE_ENV === "test" || !isMailConfigured()) return;
  startQuoteNotificationRetries();
}
