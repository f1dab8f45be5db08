import type { EmailToEnqueue } from "~/features/outbox/outbox.server";

export type ReviewEmailContext = { businessName: string; phone: string; ownerEmail: string; siteUrl: string };

/** Where a customer writes to the owner privately (signed in: their identity is the session's). */
export const FEEDBACK_PATH = "/customer-dashboard/feedback";

/**
 * The one review request (decision 133). Both links, always: the public review and the private
 * note side by side, so that nobody is steered away from a review by how they feel (Google
 * forbids gating reviews), and nothing is offered for a review (the FTC's 2024 rule).
 */
export function reviewRequestEmail(
  to: string,
  completedVisits: number,
  reviewUrl: string,
  context: ReviewEmailContext,
): Pick<EmailToEnqueue, "to" | "subject" | "text" | "replyTo"> {
  const text = [
    `Thank you for letting ${context.businessName} look after your yard: that was visit ${completedVisits}.`,
    "",
    "Would you write a short Google review? It helps your neighbours find us:",
    reviewUrl,
    "",
    "Something we could do better? Tell us what to improve, privately:",
    `${context.siteUrl}${FEEDBACK_PATH}`,
    "",
    `Questions? Call us at ${context.phone} or reply to this e-mail.`,
    context.businessName,
  ].join("\n");
  return { to, subject: `How are we doing, from ${context.businessName}`, text, replyTo: context.ownerEmail };
}

/** A customer's private note, to the owner's address; a reply goes to the customer. */
export function customerFeedbackEmail(
  customer: { email: string; name: string | null },
  message: string,
  adminCustomerUrl: string,
  context: ReviewEmailContext,
): Pick<EmailToEnqueue, "to" | "subject" | "text" | "replyTo"> {
  const who = customer.name ? `${customer.name} (${customer.email})` : customer.email;
  const text = [
    `${who} wrote through "Tell us what to improve":`,
    "",
    message,
    "",
    `Their page: ${adminCustomerUrl}`,
    "Reply to this e-mail to answer them.",
  ].join("\n");
  return { to: context.ownerEmail, subject: `A private note from ${who}`, text, replyTo: customer.email };
}
