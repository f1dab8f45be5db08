import type { EmailToEnqueue } from "~/features/outbox/outbox.server";

/**
 * The e-mails every plan change sends: one to the customer (what changed, a link to their plan,
 * the phone) and one to the owner's address from Site settings (who changed what). Plain words,
 * no gate code or notes (docs/decisions/032).
 */
export type PlanEmailContext = { businessName: string; phone: string; ownerEmail: string; siteUrl: string };

export type PlanChangeNotice = {
  /** "Visit skipped", "Service paused", ...: the toast's words, also the e-mails' subject. */
  title: string;
  /** One or two sentences saying what changed, in the customer's words ("Your visit on ..."). */
  summary: string;
  customer: { email: string; name: string | null };
  /** Who made the change, for the owner ("the customer", or the admin's name). */
  byCustomer: boolean;
  actorName: string | null;
  planName: string;
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function planChangeEmails(notice: PlanChangeNotice, context: PlanEmailContext): EmailToEnqueue[] {
  const link = new URL("/customer-dashboard/plan", context.siteUrl).href;
  const customerText = [
    notice.summary,
    "",
    `See your plan: ${link}`,
    "",
    `Questions? Call us at ${context.phone} or reply to this e-mail.`,
    context.businessName,
  ].join("\n");
  const customerHtml = [
    `<p>${escapeHtml(notice.summary)}</p>`,
    `<p><a href="${escapeHtml(link)}">See your plan</a></p>`,
    `<p>Questions? Call us at ${escapeHtml(context.phone)} or reply to this e-mail.<br>${escapeHtml(context.businessName)}</p>`,
  ].join("\n");
  const who = notice.customer.name ? `${notice.customer.name} (${notice.customer.email})` : notice.customer.email;
  const by = notice.byCustomer ? "the customer" : (notice.actorName ?? "an admin");
  const ownerText = [`${notice.title}: ${who}, ${notice.planName}.`, notice.summary, `Changed by ${by}.`].join("\n");
  return [
    {
      kind: "plan_customer",
      to: notice.customer.email,
      subject: `${notice.title}: ${notice.planName}`,
      text: customerText,
      html: customerHtml,
      replyTo: context.ownerEmail,
    },
    {
      kind: "plan_owner",
      to: context.ownerEmail,
      subject: `${notice.title}: ${who}`,
      text: ownerText,
      replyTo: notice.customer.email,
    },
  ];
}
