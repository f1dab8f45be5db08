import { formatCents } from "./money";
import { getSiteSettings } from "~/content/content.server";
import type { PlanRules } from "~/content/types";
import type { EmailToEnqueue } from "~/features/outbox/outbox.server";
import { getEnv } from "~/utils/env.server";

/**
 * The e-mails of a failed payment's recovery (docs/decisions/104 lists their exact words): the
 * failure, the pause for it, and "Your service is back on". Each links to the customer's Billing
 * page, where they update the card or pay.
 */

const BILLING_PATH = "/customer-dashboard/billing";

/** The owner's words every billing e-mail needs (its closing, its reply-to, its links). */
export type MailContext = Pick<RecoveryContext, "businessName" | "phone" | "ownerEmail" | "siteUrl">;

/** The owner's words and rules the e-mails and the pause need; tests pass their own. */
export type RecoveryContext = {
  businessName: string;
  phone: string;
  ownerEmail: string;
  siteUrl: string;
  graceDays: number;
  planRules?: PlanRules;
};

/** Who the billing e-mails are from (the owner's name, phone and address) and the site's address. */
export async function billingMailContext(): Promise<MailContext> {
  const settings = await getSiteSettings();
  return {
    businessName: settings.businessName,
    phone: settings.phone,
    ownerEmail: settings.email,
    siteUrl: getEnv().SITE_URL,
  };
}

export async function recoveryContext(): Promise<RecoveryContext> {
  const [mailContext, settings] = await Promise.all([billingMailContext(), getSiteSettings()]);
  return { ...mailContext, graceDays: settings.billingRules.graceDays, planRules: settings.planRules };
}

const dayFormat = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});
/** "Thursday, March 4" for "2027-03-04" (a business day, not an instant). */
export const dayText = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

export type Mail = Pick<EmailToEnqueue, "kind" | "subject" | "text" | "html" | "replyTo">;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A billing e-mail: its paragraphs (a line break inside one is kept), the link to the Billing
 * page (or `path` under it), and the closing with the owner's phone and name.
 */
export function mail(
  context: MailContext,
  fields: { kind: Mail["kind"]; subject: string; paragraphs: string[]; linkText: string; path?: string },
): Mail {
  const link = new URL(fields.path ?? BILLING_PATH, context.siteUrl).href;
  const closing = `Questions? Call us at ${context.phone} or reply to this e-mail.`;
  const text = [...fields.paragraphs, `${fields.linkText}: ${link}`, closing, context.businessName].join("\n\n");
  const html = [
    ...fields.paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(fields.linkText)}</a></p>`,
    `<p>${escapeHtml(closing)}<br>${escapeHtml(context.businessName)}</p>`,
  ].join("\n");
  return { kind: fields.kind, subject: fields.subject, text, html, replyTo: context.ownerEmail };
}

export function paymentFailedEmail(
  context: RecoveryContext,
  invoice: {
    number: string;
    owedCents: number;
    reason: string;
    nextChargeOn: string | null;
    pauseOn: string | null;
    paused: boolean;
  },
): Mail {
  const paragraphs = [
    `We couldn't take the payment of ${formatCents(invoice.owedCents)} for invoice ${invoice.number}. The reason given: ${invoice.reason}`,
    "Please update your card on your Billing page, or pay the invoice there.",
  ];
  if (invoice.nextChargeOn) paragraphs.push(`We'll try your card again on ${dayText(invoice.nextChargeOn)}.`);
  if (invoice.paused) {
    paragraphs.push("Your service stays paused until the invoice is paid.");
  } else if (invoice.pauseOn) {
    paragraphs.push(
      `Your visits continue for now. If the invoice is still unpaid on ${dayText(invoice.pauseOn)}, we'll pause your service until it is paid.`,
    );
  }
  return mail(context, {
    kind: "payment_failed",
    subject: `Your payment for invoice ${invoice.number} didn't go through`,
    paragraphs,
    linkText: "Update card",
  });
}

export function servicePausedEmail(
  context: RecoveryContext,
  invoice: { number: string; owedCents: number; from: string },
): Mail {
  return mail(context, {
    kind: "payment_paused",
    subject: "Your service is paused until your invoice is paid",
    paragraphs: [
      `Invoice ${invoice.number} (${formatCents(invoice.owedCents)}) is still unpaid, so we've paused your service from ${dayText(invoice.from)}: your visits are skipped until it is paid.`,
      "As soon as it is paid, your service starts again by itself.",
    ],
    linkText: "Pay or update card",
  });
}

export function serviceResumedEmail(context: RecoveryContext, invoice: { number: string; settled: string }): Mail {
  return mail(context, {
    kind: "payment_resumed",
    subject: "Your service is back on",
    paragraphs: [
      invoice.settled === "paid"
        ? `Thank you: invoice ${invoice.number} is paid. Your service is back on and your visits are scheduled again.`
        : `Invoice ${invoice.number} is settled. Your service is back on and your visits are scheduled again.`,
    ],
    linkText: "See your billing",
  });
}
