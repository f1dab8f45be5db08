import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { toast } from "~/components/toaster";
import { CREATE_SERVICE_TOASTS, createVisitSchema, missingVisitFields, NOTES_MAX_LENGTH } from "./create-visit-schema";
import { VISIT_TYPES } from "./visit-constants";
import { errorClass, fieldClass, labelClass, primaryButtonClass } from "~/components/form-classes";

import { CustomerPicker, CustomerSearchForm } from "./customer-picker";
import type { CustomerOption } from "./customer-options";

/**
 * The "Create Service" tab. Without JavaScript the form posts and the action answers with the
 * toast and field messages. With it, Conform checks the same schema as you type and, on a
 * submit that would fail, shows the SPEC's toast at once.
 */
export function CreateVisitForm({
  action,
  selectedCustomer,
  customerMatches,
  customerQuery,
  visitId,
  lastResult,
  formKey,
}: {
  action: string;
  /** The customer chosen in the URL; the picker searches for the others (never a list of all). */
  selectedCustomer: CustomerOption | null;
  /** Matches of the picker's search without JavaScript; null when nothing was searched. */
  customerMatches: CustomerOption[] | null;
  customerQuery: string;
  visitId: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
  /** Changes when a visit is created, so that type, date and notes start empty again. */
  formKey: string;
}) {
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formAction?.startsWith("/admin-dashboard");
  const [form, fields] = useForm({
    id: `create-service-${formKey}`,
    lastResult,
    defaultValue: { customerId: selectedCustomer?.id ?? "" },
    constraint: getZodConstraint(createVisitSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData, submitter }) {
      const submission = parseWithZod(formData, { schema: createVisitSchema });
      // A submit that would fail gets the toast here: the browser never sends it.
      if (submitter && submission.status !== "success") {
        const { message, description } =
          missingVisitFields(submission.error ?? {}).length > 0
            ? CREATE_SERVICE_TOASTS.missing
            : CREATE_SERVICE_TOASTS.failed;
        toast.error(message, { description });
      }
      return submission;
    },
  });
  const described = (field: { errorId: string; errors?: string[] }, hintId?: string) =>
    [hintId, field.errors?.length ? field.errorId : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <>
      <CustomerSearchForm visitId={visitId} />
      <Form key={formKey} method="post" action={action} {...getFormProps(form)} className="mt-4 space-y-5">
        <div>
          <CustomerPicker
            field={fields.customerId}
            selected={selectedCustomer}
            matches={customerMatches}
            query={customerQuery}
            describedBy={described(fields.customerId)}
          />
          <FieldError id={fields.customerId.errorId} errors={fields.customerId.errors} />
        </div>
        <div>
          <label htmlFor={fields.serviceType.id} className={labelClass}>
            Service Type
          </label>
          <select
            {...getSelectProps(fields.serviceType)}
            key={fields.serviceType.key}
            aria-describedby={described(fields.serviceType)}
            className={fieldClass}
          >
            <option value="">Select a service type</option>
            {VISIT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <FieldError id={fields.serviceType.errorId} errors={fields.serviceType.errors} />
        </div>
        <div>
          <label htmlFor={fields.serviceDate.id} className={labelClass}>
            Service Date
          </label>
          <input
            {...getInputProps(fields.serviceDate, { type: "datetime-local" })}
            key={fields.serviceDate.key}
            aria-describedby={described(fields.serviceDate, `${fields.serviceDate.id}-hint`)}
            className={fieldClass}
          />
          <p id={`${fields.serviceDate.id}-hint`} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            Pacific time (Las Vegas)
          </p>
          <FieldError id={fields.serviceDate.errorId} errors={fields.serviceDate.errors} />
        </div>
        <div>
          <label htmlFor={fields.notes.id} className={labelClass}>
            Notes (optional)
          </label>
          <textarea
            {...getTextareaProps(fields.notes)}
            key={fields.notes.key}
            rows={3}
            maxLength={NOTES_MAX_LENGTH}
            aria-describedby={described(fields.notes)}
            className={fieldClass}
          />
          <FieldError id={fields.notes.errorId} errors={fields.notes.errors} />
        </div>
        <button type="submit" disabled={creating} className={primaryButtonClass}>
          Create Service
        </button>
      </Form>
    </>
  );
}

function FieldError({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className={errorClass}>
      {errors[0]}
    </p>
  );
}
