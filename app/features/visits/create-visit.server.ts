import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { adminDashboardUrl } from "~/features/media/admin-dashboard-url";
import {
  CREATE_SERVICE_MESSAGES,
  CREATE_SERVICE_TOASTS,
  createVisitSchema,
  missingVisitFields,
} from "./create-visit-schema";
import { isCustomer } from "~/models/user.server";
import { createVisit } from "~/models/visit.server";
import { errorFields, log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";

type Toast = (typeof CREATE_SERVICE_TOASTS)[keyof typeof CREATE_SERVICE_TOASTS];

/** A form without JavaScript posts at most a few kilobytes; anything far larger is not ours. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * The Create Service action: validates with the form's schema, refuses anyone who is not a
 * customer, stores a scheduled visit and makes it the current one. A refusal answers 400
 * with the SPEC's toast and Conform's `submission.reply()` (`lastResult`: the field messages
 * and what was typed).
 */
export async function createVisitFromForm(request: Request, adminId: string) {
  const refuse = (toast: Toast, lastResult: SubmissionResult<string[]> | null) =>
    json({ toast, lastResult }, { status: 400 });

  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return refuse(CREATE_SERVICE_TOASTS.failed, null);
  }
  const formData = await request.formData().catch(() => null);
  if (!formData) return refuse(CREATE_SERVICE_TOASTS.failed, null);

  const submission = parseWithZod(formData, { schema: createVisitSchema });
  if (submission.status !== "success") {
    const result = submission.reply();
    const errors = result.error ?? {};
    const missing = missingVisitFields(errors);
    // An empty required field is "Missing Information", whatever else is wrong; only then the rest.
    if (missing.length > 0) {
      return refuse(CREATE_SERVICE_TOASTS.missing, {
        ...result,
        error: Object.fromEntries(missing.map((field) => [field, errors[field] ?? []])),
      });
    }
    return refuse(CREATE_SERVICE_TOASTS.failed, result);
  }

  const { customerId, serviceType, serviceDate, notes } = submission.value;
  if (!(await isCustomer(customerId))) {
    return refuse(
      CREATE_SERVICE_TOASTS.failed,
      submission.reply({ fieldErrors: { customerId: [CREATE_SERVICE_MESSAGES.customerUnknown] } }),
    );
  }

  try {
    const visit = await createVisit({
      customerId,
      serviceType,
      serviceDate,
      notes: notes || null,
      createdBy: adminId,
    });
    log.info("visit.created", { visitId: visit.id, adminId });
    // The new visit becomes the current one; the customer stays chosen.
    return redirectWithSuccess(adminDashboardUrl("create", visit.id, visit.customer_id), {
      message: "Success",
      description: "Service created successfully",
    });
  } catch (error) {
    log.error("visit.create_failed", errorFields(error));
    // Nothing is wrong with the fields: the toast tells, and what was typed comes back.
    return refuse(CREATE_SERVICE_TOASTS.failed, submission.reply());
  }
}
