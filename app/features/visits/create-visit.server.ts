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

const FIELDS = ["customerId", "serviceType", "serviceDate", "notes"] as const;
type Field = (typeof FIELDS)[number];
export type CreateVisitValues = Record<Field, string>;
type Toast = (typeof CREATE_SERVICE_TOASTS)[keyof typeof CREATE_SERVICE_TOASTS];

/** A form without JavaScript posts at most a few kilobytes; anything far larger is not ours. */
const MAX_FORM_BYTES = 64 * 1024;

/**
 * The Create Service action: validates with the form's schema, refuses anyone who is not a
 * customer, stores a scheduled visit and makes it the current one. A refusal answers 400
 * with the SPEC's toast, the field messages (Conform's `lastResult`) and what was typed.
 */
export async function createVisitFromForm(request: Request, adminId: string) {
  const empty: CreateVisitValues = { customerId: "", serviceType: "", serviceDate: "", notes: "" };
  const refuse = (toast: Toast, values: CreateVisitValues, errors: Partial<Record<Field, string[]>> = {}) => {
    const fieldErrors = Object.fromEntries(
      Object.entries(errors).flatMap(([field, messages]) => (messages?.[0] ? [[field, messages[0]]] : [])),
    ) as Partial<Record<Field, string>>;
    const lastResult = { status: "error" as const, initialValue: values, error: errors };
    return json({ toast, values, fieldErrors, lastResult }, { status: 400 });
  };

  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_FORM_BYTES) {
    return refuse(CREATE_SERVICE_TOASTS.failed, empty);
  }
  const formData = await request.formData().catch(() => null);
  const values = Object.fromEntries(
    FIELDS.map((field) => {
      const value = formData?.get(field);
      return [field, typeof value === "string" ? value : ""];
    }),
  ) as CreateVisitValues;
  if (!formData) return refuse(CREATE_SERVICE_TOASTS.failed, values);

  const submission = parseWithZod(formData, { schema: createVisitSchema });
  if (submission.status !== "success") {
    const errors = (submission.reply().error ?? {}) as Record<string, string[] | null>;
    const missing = missingVisitFields(errors);
    // An empty required field is "Missing Information", whatever else is wrong; only then the rest.
    if (missing.length > 0) {
      return refuse(
        CREATE_SERVICE_TOASTS.missing,
        values,
        Object.fromEntries(missing.map((field) => [field, errors[field] ?? []])),
      );
    }
    return refuse(CREATE_SERVICE_TOASTS.failed, values, pickFieldErrors(errors));
  }

  const { customerId, serviceType, serviceDate, notes } = submission.value;
  if (!(await isCustomer(customerId))) {
    return refuse(CREATE_SERVICE_TOASTS.failed, values, { customerId: [CREATE_SERVICE_MESSAGES.customerUnknown] });
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
    return refuse(CREATE_SERVICE_TOASTS.failed, values);
  }
}

function pickFieldErrors(errors: Record<string, string[] | null>) {
  return Object.fromEntries(
    FIELDS.flatMap((field) => (errors[field]?.length ? [[field, errors[field] as string[]]] : [])),
  ) as Partial<Record<Field, string[]>>;
}
