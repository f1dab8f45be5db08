import { formatCents } from "~/features/billing/money";
import type { EmailToEnqueue } from "~/features/outbox/outbox.server";
import { describeWeekdays } from "~/features/plans/plan-schedule";

/**
 * The two e-mails a finished sign-up sends through the outbox (docs/decisions/129): the welcome
 * (what happens next: the first visit, the gate, how to skip) and the owner's "New customer".
 * Never the gate code itself (decision 032): the welcome says it is on file and where to change it.
 */
export type SignUpEmailContext = {
  businessName: string;
  phone: string;
  ownerEmail: string;
  siteUrl: string;
  changeNoticeHours: number;
};

export type FinishedSignUp = {
  customerId: string;
  name: string;
  email: string;
  planName: string;
  weekdays: readonly number[];
  firstVisitLabel: string;
  hasGateCode: boolean;
  todayCents: number;
  monthlyCents: number;
  invoiceNumber: string | null;
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function signUpEmails(done: FinishedSignUp, context: SignUpEmailContext): EmailToEnqueue[] {
  const url = (path: string) => new URL(path, context.siteUrl).href;
  const days = describeWeekdays(done.weekdays);
  const gate = done.hasGateCode
    ? `We have your gate code on file. If it changes, update it on Your Yard: ${url("/customer-dashboard/yard")}`
    : `Please leave the gate unlocked on your service days, or add a gate code on Your Yard: ${url("/customer-dashboard/yard")}`;
  const skip = `To skip a visit, pause or cancel, open Your Plan at least ${context.changeNoticeHours} hours before the visit: ${url("/customer-dashboard/plan")}`;
  const paragraphs = [
    `Welcome, ${done.name}! Your ${done.planName} has started.`,
    `Your first visit is on ${done.firstVisitLabel}; after that we come every ${days}.`,
    gate,
    skip,
    `Today's charge is ${formatCents(done.todayCents)}${done.invoiceNumber ? ` (invoice ${done.invoiceNumber})` : ""}, paid at your first visit; then ${formatCents(done.monthlyCents)} a month.`,
    `Questions? Call us at ${context.phone} or reply to this e-mail.`,
  ];
  const ownerText = [
    `New customer: ${done.name} (${done.email}) signed up online.`,
    `${done.planName}, every ${days}; first visit ${done.firstVisitLabel}.`,
    `Today's charge ${formatCents(done.todayCents)}, then ${formatCents(done.monthlyCents)} a month.`,
    `Customer page: ${url(`/admin-dashboard/customers/${done.customerId}`)}`,
  ].join("\n");
  return [
    {
      kind: "plan_customer",
      to: done.email,
      subject: `Welcome to ${context.businessName}: your first visit is ${done.firstVisitLabel}`,
      text: [...paragraphs, context.businessName].join("\n\n"),
      html: [...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`), `<p>${escapeHtml(context.businessName)}</p>`].join(
        "\n",
      ),
      replyTo: context.ownerEmail,
      dedupeKey: `sign-up-welcome:${done.customerId}`,
    },
    {
      kind: "plan_owner",
      to: context.ownerEmail,
      subject: `New customer: ${done.name}`,
      text: ownerText,
      replyTo: done.email,
      dedupeKey: `sign-up-owner:${done.customerId}`,
    },
  ];
}
