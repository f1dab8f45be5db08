import { createHmac, randomUUID } from "node:crypto";
import { parseWithZod } from "@conform-to/zod";
import { json, type AppLoadContext } from "@remix-run/node";
import { getAddOns, getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import { createQuoteRequest, getQuoteRequest } from "~/models/quote-request.server";
import { hitRateLimit } from "~/models/rate-limit.server";
import { getClientKey } from "~/utils/client-ip.server";
import { getEnv } from "~/utils/env.server";
import { log } from "~/utils/logger.server";
import { QUOTE_SENT_TITLE, quoteNextSteps, quoteOutsideArea } from "./quote-copy";
import { QUOTE_SENT_HEADING_ID } from "./quote-form-data";
import { estimateQuote } from "./quote-estimate";
import { wakeOutboxWorker } from "~/features/outbox/outbox.server";
import { queueQuoteEmails, quoteEmailContext } from "./quote-notifications.server";
import { isHoneypotSpam } from "./quote-honeypot.server";
import { createQuoteSchema, dogCountLabel, firstInvalidField, yardSizeLabel } from "./quote-schema";
import { createQuoteSentToken, readQuoteSentToken } from "./quote-token.server";
import { redirectWithSuccess } from "~/utils/toast.server";

/** Per client: enough for a family sharing a connection, too few for a flood. */
export const QUOTE_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 };

/** Stored and used as the rate-limit key instead of the address itself. */
function clientKey(address: string): string {
  return createHmac("sha256", getEnv().SESSION_SECRET).update(`quote-client:${address}`).digest("hex").slice(0, 32);
}

/**
 * The success screen, with the toast saying what happens next. The URL's fragment is the
 * screen's heading (focusable, tabindex -1): the browser scrolls to it and moves focus there,
 * so the news is heard, with JavaScript off too.
 */
async function redirectToSent(quoteId: string, outsideZip: string | null) {
  const settings = await getSiteSettings();
  const description = [quoteNextSteps(settings.hours.display), outsideZip ? quoteOutsideArea(outsideZip) : null]
    .filter(Boolean)
    .join(" ");
  const sent = encodeURIComponent(createQuoteSentToken(quoteId));
  return redirectWithSuccess(`/contact?sent=${sent}#${QUOTE_SENT_HEADING_ID}`, {
    message: QUOTE_SENT_TITLE,
    description,
  });
}

/**
 * The /contact action: honeypot, validation (the same schema as the browser's), rate limit,
 * storage with its e-mails queued in the same transaction (a duplicate within the window is
 * stored once, its e-mails too), then the success screen. Nothing is sent inside the request:
 * the outbox worker sends after the answer (docs/decisions/034).
 * Bad input answers 400 with Conform's result (values kept, one message per field); nothing a
 * client sends gives a 500.
 */
export async function submitQuoteRequest(request: Request, context: AppLoadContext) {
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    return json(
      {
        lastResult: { status: "error" as const, error: { "": ["We could not read the form. Please try again."] } },
        focus: null,
      },
      { status: 400 },
    );
  }

  // Bots fill the field people never see: they get the same success screen, nothing is stored.
  if (isHoneypotSpam(formData)) {
    log.info("quote.honeypot", {});
    return redirectToSent(randomUUID(), null);
  }

  const [options, addOns, settings] = await Promise.all([getQuoteServiceOptions(), getAddOns(), getSiteSettings()]);
  const submission = parseWithZod(formData, { schema: createQuoteSchema(options.map((option) => option.value)) });
  if (submission.status !== "success") {
    const lastResult = submission.reply();
    return json({ lastResult, focus: firstInvalidField(lastResult.error) ?? null }, { status: 400 });
  }

  const address = getClientKey(request, context);
  const key = clientKey(address);
  const limit = await hitRateLimit(`quote:${key}`, QUOTE_RATE_LIMIT);
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    log.warn("quote.rate_limited", { client: key });
    const message = `You have sent several requests in a short time. Please try again in ${minutes} minute${
      minutes === 1 ? "" : "s"
    }, or call us at ${settings.phone}.`;
    return json(
      { lastResult: submission.reply({ formErrors: [message] }), focus: null },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }

  const input = submission.value;
  const estimate = estimateQuote(options, addOns, input.service, input.dogs);
  // An empty list in content means the area is not configured: nobody is flagged.
  const outside = settings.servedZipCodes.length > 0 && !settings.servedZipCodes.includes(input.zip);
  const emailContext = await quoteEmailContext(input.service);
  const { quote, duplicate } = await createQuoteRequest(
    {
      ...input,
      outsideServiceArea: outside,
      estimateCents: estimate?.cents ?? null,
      estimateLabel: estimate?.label ?? null,
      clientKey: key,
    },
    (trx, stored) => queueQuoteEmails(trx, stored, emailContext),
  );
  log.info(duplicate ? "quote.duplicate" : "quote.created", { quoteId: quote.id, outside });
  // Committed: the worker may send now, after this answer (it never runs inside the request).
  if (!duplicate) wakeOutboxWorker();
  return redirectToSent(quote.id, quote.outside_service_area ? quote.zip : null);
}

export type QuoteConfirmation = {
  nextSteps: string;
  /** Null when the token is valid but the request is not stored (a honeypot catch). */
  details: {
    serviceLabel: string;
    dogs: string;
    yardSize: string;
    estimateLabel: string | null;
    outsideArea: string | null;
  } | null;
};

/**
 * For the /contact loader: the success screen's content when the URL carries a valid `sent`
 * token, else null. Shows what was asked for and the estimate, never contact details.
 */
export async function getQuoteConfirmation(request: Request): Promise<QuoteConfirmation | null> {
  const quoteId = readQuoteSentToken(new URL(request.url).searchParams.get("sent"));
  if (!quoteId) return null;
  const [settings, options, quote] = await Promise.all([
    getSiteSettings(),
    getQuoteServiceOptions(),
    getQuoteRequest(quoteId),
  ]);
  return {
    nextSteps: quoteNextSteps(settings.hours.display),
    details: quote
      ? {
          serviceLabel: options.find((option) => option.value === quote.service)?.label ?? quote.service,
          dogs: dogCountLabel(quote.dogs),
          yardSize: yardSizeLabel(quote.yard_size),
          estimateLabel: quote.estimate_label,
          outsideArea: quote.outside_service_area ? quoteOutsideArea(quote.zip) : null,
        }
      : null,
  };
}
