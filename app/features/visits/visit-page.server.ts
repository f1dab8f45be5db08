import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { HEALTH_FLAG_LABELS, MISSED_REASON_LABELS } from "./visit-constants";
import { toBusinessInputValue } from "./visit-dates";
import { visitPath } from "./visit-paths";
import { phoneLink } from "./phone-link";
import { dateSchema, healthSchema, missSchema, notesSchema } from "./visit-schemas";
import { isAllowed, isVisitAction, VISIT_ACTION_NAMES, VISIT_TOASTS } from "./visit-transitions";
import { applyVisitAction, saveHealthNotes, saveVisitNotes, type VisitActionInput } from "./visit-workflow.server";
import { outboxStatusLabel } from "~/features/outbox/outbox-constants";
import { SKIP_REASON_LABELS } from "~/features/plans/plan-constants";
import { mediaKindOf } from "~/features/media/visit-media.server";
import {
  recordLocationAtCompletion,
  saveYardLocationFromForm,
  YARD_LOCATION_INTENT,
  yardLocationView,
} from "~/features/yards/yard-location.server";
import { yardView } from "~/features/yards/yard-view.server";
import { findPlanById } from "~/models/customer-plan.server";
import { listOutboxFor } from "~/models/outbox.server";
import { deleteVisitImage, listMediaForVisit } from "~/models/visit-media.server";
import { isActiveStaff } from "~/models/staff.server";
import { reassignVisit } from "~/features/staff/visit-assignment.server";
import { GATE_CODE_INTENT, GATE_CODE_MESSAGES, revealGateCode } from "~/features/staff/gate-code.server";
import { findCustomerPhone, findReturnVisit, getVisit, listVisitEvents, recordVisitEvent } from "~/models/visit.server";
import { getYardProfile } from "~/models/yard-profile.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";
import { getStorage } from "~/utils/storage.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { isUuid } from "~/utils/uuid";

const notFound = () => new Response("Visit not found", { status: 404 });

/** "Completed at 10:31 AM", with the day when it was not the visit's own. */
export function completedLabel(completedAt: Date, serviceDate: Date): string {
  const [day, time] = splitDateTime(formatBusinessDateTime(completedAt));
  const [visitDay] = splitDateTime(formatBusinessDateTime(serviceDate));
  return day === visitDay ? `Completed at ${time}` : `Completed at ${time} on ${day}`;
}

/** "Tue, Nov 26, 2026, 10:31 AM" → its day and its time. */
function splitDateTime(label: string): [string, string] {
  const cut = label.lastIndexOf(", ");
  return cut < 0 ? [label, label] : [label.slice(0, cut), label.slice(cut + 2)];
}

/** Everything the admin's visit page shows. Throws 404 for an unknown id. */
export async function loadAdminVisit(visitId: string) {
  const visit = await getVisit(visitId);
  if (!visit) throw notFound();
  const [yard, media, events, emails, returnVisit, quotePhone, plan] = await Promise.all([
    getYardProfile(visit.customer_id),
    listMediaForVisit(visit.id),
    listVisitEvents(visit.id),
    listOutboxFor(visit.id),
    findReturnVisit(visit.id),
    findCustomerPhone(visit.customer_email),
    visit.plan_id ? findPlanById(visit.plan_id) : null,
  ]);
  const dateLabel = formatBusinessDate(visit.service_date);
  return {
    visit: {
      id: visit.id,
      /** The way back: a technician's is their own list (decision 128). */
      back: { to: "/admin-dashboard/visits", label: "All visits" },
      assignedTo: visit.assigned_to,
      serviceType: visit.service_type,
      date: visit.service_date.toISOString(),
      dateLabel: formatBusinessDateTime(visit.service_date),
      dateInput: toBusinessInputValue(visit.service_date),
      returnDateInput: toBusinessInputValue(new Date(visit.service_date.getTime() + 24 * 3600_000)),
      status: visit.status,
      completedAt: visit.completed_at?.toISOString() ?? null,
      completedLabel: visit.completed_at ? completedLabel(visit.completed_at, visit.service_date) : null,
      notes: visit.notes,
      healthFlags: visit.health_flags,
      healthNote: visit.health_note,
      missedReason: visit.missed_reason ? MISSED_REASON_LABELS[visit.missed_reason] : null,
      missedNote: visit.missed_note,
      returnVisitOf: visit.return_visit_of,
      returnVisit: returnVisit
        ? { id: returnVisit.id, dateLabel: formatBusinessDateTime(returnVisit.service_date) }
        : null,
      allowed: VISIT_ACTION_NAMES.filter((action) => isAllowed(action, visit.status)),
      skipReason: visit.status === "skipped" && visit.skip_reason ? SKIP_REASON_LABELS[visit.skip_reason] : null,
      // The customer plan it was made from (decision 090), and whether it still follows it.
      plan: plan
        ? {
            name: plan.catalogue_plan_name,
            href: `/admin-dashboard/customers/${plan.customer_id}#plan` as string | null,
            followsPlan: visit.plan_left_at === null,
          }
        : null,
    },
    customer: {
      id: visit.customer_id,
      /** Their page, for staff who may open it. */
      href: `/admin-dashboard/customers/${visit.customer_id}` as string | null,
      name: visit.customer_name,
      email: visit.customer_email,
      // The yard's mobile (migration 0013), else the newest number on their quotes.
      phone: phoneLink(yard?.mobile_phone || quotePhone),
    },
    yard: yardView(yard),
    // The yard's coordinates, for the admin's "Yard location" form (decision 093).
    location: yardLocationView(yard),
    media: media.map((m) => ({
      id: m.id,
      url: `/resources/media/${m.id}`,
      kind: mediaKindOf(m),
      imageType: m.image_type,
      serviceType: visit.service_type,
      dateLabel,
    })),
    history: events.map((event) => ({
      id: event.id,
      when: formatBusinessDateTime(event.created_at),
      at: event.created_at.toISOString(),
      who: event.actor_name ?? event.actor_email ?? "System",
      what: describeEvent(event),
    })),
    emails: emails.map((email) => ({
      id: email.id,
      subject: email.subject,
      to: email.to_address,
      status: outboxStatusLabel(email.status, email.last_error),
      attempts: email.attempts,
      error: email.last_error,
      sentAt: email.sent_at ? formatBusinessDateTime(email.sent_at) : null,
    })),
  };
}

function describeEvent(event: {
  kind: string;
  from_status: string | null;
  to_status: string | null;
  detail: string | null;
}) {
  switch (event.kind) {
    case "status":
      return `Status ${event.from_status ?? "?"} → ${event.to_status ?? "?"}${event.detail ? `. ${event.detail}` : ""}`;
    case "rescheduled":
      return `Rescheduled. ${event.detail ?? ""}`.trim();
    case "health_notes":
      return `Health notes: ${
        event.detail?.replace(
          /[a-z_]+/g,
          (flag) => HEALTH_FLAG_LABELS[flag as keyof typeof HEALTH_FLAG_LABELS] ?? flag,
        ) ?? ""
      }`;
    default:
      return event.detail ?? event.kind;
  }
}

export type VisitActionData = {
  toast: { type: "error" | "success"; message: string; description: string };
  /** The answer to "Show gate code" (decision 128): the code, shown once, its view logged. */
  gateCode?: string;
  /** Conform's `submission.reply()` of a refused form. */
  result?: SubmissionResult<string[]>;
  intent?: string;
};

const refuse = (status: number, description: string, extra: Partial<VisitActionData> = {}) =>
  json<VisitActionData>({ toast: { type: "error", message: "Error", description }, ...extra }, { status });

const MAX_FORM_BYTES = 64 * 1024;

/** The form that sets who works the visit (decision 123). */
export const ASSIGN_INTENT = "assign";

/**
 * What only office and owner may do on a visit's page (decision 123): its calendar (skip, cancel,
 * reschedule, a return visit) and who works it. A technician records the visit's outcome, notes,
 * health notes, the yard's location and its media.
 */
export const OFFICE_VISIT_INTENTS: ReadonlySet<string> = new Set([
  "skip",
  "cancel",
  "reschedule",
  "return-visit",
  ASSIGN_INTENT,
]);

/**
 * The visit page's forms, told apart by `intent`. `mayManage`: the staff member may change the
 * visit's calendar and assignment (office, owner); `needToKnow`: a gate code is theirs to see
 * only on their own visit's day (technicians); the route decides both from the role.
 */
export async function handleAdminVisitAction(
  request: Request,
  visitId: string,
  adminId: string,
  options: { mayManage: boolean; needToKnow?: boolean } = { mayManage: true },
) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return refuse(413, "That form is too large");
  }
  const formData = await request.formData().catch(() => null);
  if (!formData) return refuse(400, "That form could not be read");
  const intent = String(formData.get("intent") ?? "");
  if (!options.mayManage && OFFICE_VISIT_INTENTS.has(intent)) {
    return refuse(403, "Your staff role does not allow this.", { intent });
  }
  const visit = await getVisit(visitId);
  if (!visit) throw notFound();
  const back = visitPath(visitId);

  if (intent === ASSIGN_INTENT) {
    const to = String(formData.get("assignedTo") ?? "");
    // Empty: nobody; otherwise an active staff account, never a customer or a made-up id.
    if (to && !(isUuid(to) && (await isActiveStaff(to))))
      return refuse(400, "Choose a staff member from the list", { intent });
    if (!(await reassignVisit(visitId, to || null, adminId))) throw notFound();
    return redirectWithSuccess(back, { message: "Success", description: to ? "Visit assigned" : "Visit unassigned" });
  }

  if (intent === GATE_CODE_INTENT) {
    const reveal = await revealGateCode({ visitId, viewerId: adminId, needToKnow: options.needToKnow ?? false });
    if (!reveal.ok) return refuse(reveal.status, reveal.description, { intent });
    return json<VisitActionData>({
      toast: { type: "success", message: "Success", description: GATE_CODE_MESSAGES.shown },
      intent,
      gateCode: reveal.gateCode,
    });
  }

  if (isVisitAction(intent)) {
    let input: VisitActionInput;
    if (intent === "miss") {
      const submission = parseWithZod(formData, { schema: missSchema });
      if (submission.status !== "success") return invalid(intent, submission.reply());
      input = { action: "miss", ...submission.value };
    } else if (intent === "reschedule" || intent === "return-visit") {
      const submission = parseWithZod(formData, { schema: dateSchema });
      if (submission.status !== "success") return invalid(intent, submission.reply());
      input = { action: intent, serviceDate: submission.value.serviceDate };
    } else {
      input = { action: intent };
    }
    const result = await applyVisitAction(visitId, input, adminId);
    if (result.kind === "not-found") throw notFound();
    if (result.kind === "not-allowed") return refuse(409, VISIT_TOASTS.notAllowed.description, { intent });
    if (intent === "complete") await recordLocationAtCompletion(formData, visit.customer_id);
    return redirectWithSuccess(back, VISIT_TOASTS[intent]);
  }

  if (intent === YARD_LOCATION_INTENT) {
    const saved = await saveYardLocationFromForm(formData, visit.customer_id, adminId);
    if (!saved.ok) return invalid(intent, saved.lastResult);
    return redirectWithSuccess(back, { message: "Success", description: "Yard location saved" });
  }

  if (intent === "notes") {
    const submission = parseWithZod(formData, { schema: notesSchema });
    if (submission.status !== "success") return invalid(intent, submission.reply());
    await saveVisitNotes(visitId, submission.value.notes || null, adminId);
    return redirectWithSuccess(back, { message: "Success", description: "Notes saved" });
  }

  if (intent === "health") {
    const submission = parseWithZod(formData, { schema: healthSchema });
    if (submission.status !== "success") return invalid(intent, submission.reply());
    await saveHealthNotes(visitId, submission.value.healthFlags, submission.value.healthNote || null, adminId);
    return redirectWithSuccess(back, { message: "Success", description: "Health notes saved" });
  }

  if (intent === "delete-media") {
    const removed = await deleteVisitImage(visitId, String(formData.get("mediaId") ?? ""));
    if (!removed) return refuse(404, "That photo or video is already gone");
    await getStorage()
      .delete(removed.image_url)
      .catch((error) => log.error("media.orphan", { imageId: removed.id, ...errorFields(error) }));
    await recordVisitEvent(await getDb(), {
      visitId,
      actorId: adminId,
      kind: "media_deleted",
      detail: `Deleted a ${removed.image_type} ${removed.content_type?.startsWith("video/") ? "video" : "photo"}`,
    });
    log.info("media.deleted", { imageId: removed.id, visitId, adminId });
    return redirectWithSuccess(back, { message: "Success", description: "Media deleted" });
  }

  return refuse(400, "Unknown action");
}

function invalid(intent: string, result: SubmissionResult<string[]>) {
  return refuse(400, "Please check the form", { intent, result });
}
