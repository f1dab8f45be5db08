import type { OutboxAttachment, Visit } from "../../../db/schema";
import { HEALTH_FLAG_LABELS, MISSED_REASON_LABELS, VET_ADVICE } from "./visit-constants";
import type { EmailToEnqueue } from "~/features/outbox/outbox.server";
import type { VisitImage } from "~/models/visit-media.server";
import { formatCents } from "~/features/billing/money";
import { tipPresets } from "~/features/tips/tip-rules";
import { formatBusinessDate } from "~/utils/business-time";

/**
 * The completion and missed e-mails. Built from the visit, its media and the business's name
 * only: the yard profile (and so the gate code) is never read here (docs/decisions/032).
 */
export type VisitEmailContext = {
  businessName: string;
  phone: string;
  siteUrl: string;
  /** The tips offered, whole dollars from Sanity (decision 131); null or absent: none. */
  tipAmounts?: readonly number[] | null;
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const visitPortalUrl = (visitId: string, siteUrl: string) =>
  new URL(`/customer-dashboard/visits/${visitId}`, siteUrl).href;

/** The tip page of a visit, with an amount chosen (cents) or "other". */
export const tipPageUrl = (visitId: string, siteUrl: string, amount: number | "other") =>
  new URL(`/customer-dashboard/visits/${visitId}/tip?amount=${amount}`, siteUrl).href;

/**
 * "Leave a tip for your technician": a link per amount and "Other", each to the signed-in tip
 * page of this visit (decision 131). Only for a visit with a technician on record.
 */
function tipOffer(visit: Visit, context: VisitEmailContext) {
  const amounts = tipPresets(context.tipAmounts ?? []);
  if (!visit.assigned_to || amounts.length === 0) return null;
  const links = [
    ...amounts.map((cents) => ({ label: formatCents(cents), href: tipPageUrl(visit.id, context.siteUrl, cents) })),
    { label: "Other", href: tipPageUrl(visit.id, context.siteUrl, "other") },
  ];
  return {
    text: ["Leave a tip for your technician (all of it goes to them):", ...links.map((l) => `${l.label}: ${l.href}`)],
    html: `<p>Leave a tip for your technician (all of it goes to them): ${links
      .map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`)
      .join(" · ")}</p>`,
  };
}

function healthLines(visit: Pick<Visit, "health_flags" | "health_note">) {
  const flags = visit.health_flags.map((flag) => HEALTH_FLAG_LABELS[flag]);
  if (flags.length === 0 && !visit.health_note) return [];
  return [
    "Health notes:",
    ...flags.map((label) => `- ${label}`),
    ...(visit.health_note ? [visit.health_note] : []),
    ...(flags.length > 0 ? [VET_ADVICE] : []),
  ];
}

/** "Your {visit type} visit is complete", with the first after image inline when there is one. */
export function visitCompletedEmail(
  visit: Visit,
  to: string,
  media: VisitImage[],
  context: VisitEmailContext,
): Omit<EmailToEnqueue, "kind" | "dedupeKey" | "relatedId"> {
  const link = visitPortalUrl(visit.id, context.siteUrl);
  const photo = media.find((m) => m.image_type === "after" && m.content_type?.startsWith("image/"));
  const hasVideo = media.some((m) => m.content_type?.startsWith("video/"));
  // Both are taken out by the sender when the photo cannot be attached after all (issue 35).
  const photoMention = {
    text: "The after photo is attached.",
    html: `<p><img src="cid:after-photo" alt="Your yard after the visit" style="max-width:100%"></p>`,
  };
  const attachments: OutboxAttachment[] = photo
    ? [
        {
          key: photo.image_url,
          filename: `after.${photo.image_url.split(".").pop() ?? "jpg"}`,
          contentType: photo.content_type ?? "image/jpeg",
          cid: "after-photo",
          mention: photoMention,
        },
      ]
    : [];
  const health = healthLines(visit);
  const tip = tipOffer(visit, context);
  const date = formatBusinessDate(visit.service_date);
  const text = [
    `Your ${visit.service_type} visit on ${date} is complete.`,
    "",
    ...(photo ? [photoMention.text] : hasVideo ? ["Watch the video of your yard in the portal."] : []),
    ...(health.length > 0 ? ["", ...health] : []),
    "",
    `See your visit: ${link}`,
    ...(tip ? ["", ...tip.text] : []),
    "",
    `Questions? Call us at ${context.phone} or reply to this e-mail.`,
    context.businessName,
  ].join("\n");
  const html = [
    `<p>Your ${escapeHtml(visit.service_type)} visit on ${escapeHtml(date)} is complete.</p>`,
    photo ? photoMention.html : "",
    health.length > 0 ? `<p>${health.map(escapeHtml).join("<br>")}</p>` : "",
    `<p><a href="${escapeHtml(link)}">See your visit</a></p>`,
    tip ? tip.html : "",
    `<p>Questions? Call us at ${escapeHtml(context.phone)} or reply to this e-mail.<br>${escapeHtml(context.businessName)}</p>`,
  ].join("\n");
  return { to, subject: `Your ${visit.service_type} visit is complete`, text, html, attachments };
}

/** "We couldn't complete your visit on {date}", with the reason. */
export function visitMissedEmail(
  visit: Visit,
  to: string,
  context: VisitEmailContext,
): Omit<EmailToEnqueue, "kind" | "dedupeKey" | "relatedId"> {
  const date = formatBusinessDate(visit.service_date);
  const reason = visit.missed_reason ? MISSED_REASON_LABELS[visit.missed_reason] : "Other";
  const text = [
    `We couldn't complete your ${visit.service_type} visit on ${date}.`,
    "",
    `Reason: ${reason}${visit.missed_note ? ` (${visit.missed_note})` : ""}`,
    "",
    "We will come back to finish the job. See your visit:",
    visitPortalUrl(visit.id, context.siteUrl),
    "",
    `Questions? Call us at ${context.phone} or reply to this e-mail.`,
    context.businessName,
  ].join("\n");
  return { to, subject: `We couldn't complete your visit on ${date}`, text };
}
