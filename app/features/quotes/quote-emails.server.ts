import type { QuoteRequest } from "../../../db/schema";
import type { SiteSettings } from "~/content/types";
import type { OutgoingMail } from "~/utils/mailer.server";
import { QUOTE_ESTIMATE_NOTE, quoteEstimateSentence, quoteNextSteps, quoteOutsideArea } from "./quote-copy";
import { formatQuoteTime } from "./quote-format";
import { dogCountLabel, yardSizeLabel } from "./quote-schema";

export type QuoteEmailContext = {
  settings: Pick<SiteSettings, "businessName" | "email" | "phone" | "hours">;
  /** The service option's label in content, e.g. "Weekly Swift Service". */
  serviceLabel: string;
  siteUrl: string;
};

/** One quote e-mail, ready for the outbox (enqueueEmail adds the kind and keys). */
export type QuoteMail = Required<Pick<OutgoingMail, "to" | "replyTo" | "subject" | "text">>;

// Plain text only: every value is the visitor's own text, and plain text cannot inject markup.

/** To the business: every field, the estimate and the service-area flag; replies go to the visitor. */
export function ownerQuoteEmail(quote: QuoteRequest, context: QuoteEmailContext): QuoteMail {
  const flag = quote.outside_service_area ? " [outside service area]" : "";
  const lines = [
    `New quote request from ${quote.name}.`,
    ...(quote.outside_service_area
      ? ["", `OUTSIDE SERVICE AREA: ZIP ${quote.zip} is not one of the served ZIP codes. Confirm before quoting.`]
      : []),
    "",
    `Name: ${quote.name}`,
    `Phone: ${quote.phone}`,
    `E-mail: ${quote.email}`,
    `Address: ${quote.address}`,
    `ZIP code: ${quote.zip}${quote.outside_service_area ? " (outside the service area)" : ""}`,
    `Dogs: ${dogCountLabel(quote.dogs)}`,
    `Yard size: ${yardSizeLabel(quote.yard_size)}`,
    `Service: ${context.serviceLabel}`,
    `Estimate shown: ${quote.estimate_label ?? "none (custom quote)"}`,
    `Message: ${quote.message ? `\n${quote.message}` : "(none)"}`,
    "",
    `Received: ${formatQuoteTime(quote.created_at)}`,
    `Open in the inbox: ${new URL(`/admin-dashboard/quotes/${quote.id}`, context.siteUrl).href}`,
    `Reply to this e-mail to answer ${quote.name} directly.`,
  ];
  return {
    to: context.settings.email,
    replyTo: quote.email,
    subject: `New quote request: ${quote.name}, ${context.serviceLabel}${flag}`,
    text: lines.join("\n"),
  };
}

/** To the visitor: what they asked for and what happens next; replies go to the business. */
export function visitorQuoteEmail(quote: QuoteRequest, context: QuoteEmailContext): QuoteMail {
  const { settings } = context;
  // Nothing the visitor wrote (name, address, message) goes into this e-mail: the form must
  // not be a way to send one's own text, from the business's sender, to any address.
  const lines = [
    "Hello,",
    "",
    `Thank you for asking ${settings.businessName} for a quote. ${quoteNextSteps(settings.hours.display)}`,
    ...(quote.outside_service_area ? ["", quoteOutsideArea(quote.zip)] : []),
    "",
    "Your request:",
    `Service: ${context.serviceLabel}`,
    `Dogs: ${dogCountLabel(quote.dogs)}`,
    `Yard size: ${yardSizeLabel(quote.yard_size)}`,
    ...(quote.estimate_label ? [`${quoteEstimateSentence(quote.estimate_label)}. ${QUOTE_ESTIMATE_NOTE}`] : []),
    "",
    `Questions? Call us at ${settings.phone} or reply to this e-mail.`,
    "",
    settings.businessName,
  ];
  return {
    to: quote.email,
    replyTo: settings.email,
    subject: `We received your quote request - ${settings.businessName}`,
    text: lines.join("\n"),
  };
}
