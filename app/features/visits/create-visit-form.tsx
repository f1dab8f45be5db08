import { getFormProps, useForm } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { toast } from "~/components/toaster";
import { CREATE_SERVICE_TOASTS, createVisitSchema, missingVisitFields, NOTES_MAX_LENGTH } from "./create-visit-schema";
import { VISIT_TYPES } from "./visit-constants";
import { Field, SelectField, TextareaField } from "~/components/forms";
import { primaryButtonClass } from "~/components/ui-classes";

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
      // A submit that would fail gets the toast here: the browser never sends it. Only a real
      // submit: Conform validates a field on blur through a submit event too (its intent button
      // is the submitter), and that submission's status is undefined, never "error".
      if (submitter && submission.status === "error") {
        const { message, description } =
          missingVisitFields(submission.error ?? {}).length > 0
            ? CREATE_SERVICE_TOASTS.missing
            : CREATE_SERVICE_TOASTS.failed;
        toast.error(message, { description });
      }
      return submission;
    },
  });

  return (
    <>
      <CustomerSearchForm visitId={visitId} />
      <Form key={formKey} method="post" action={action} {...getFormProps(form)} className="mt-4 space-y-5">
        <CustomerPicker
          field={fields.customerId}
          selected={selectedCustomer}
          matches={customerMatches}
          query={customerQuery}
        />
        <SelectField key={fields.serviceType.key} field={fields.serviceType} label="Service Type">
          <option value="">Select a service type</option>
          {VISIT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <Field
          key={fields.serviceDate.key}
          field={fields.serviceDate}
          label="Service Date"
          description="Pacific time (Las Vegas)"
          inputProps={{ type: "datetime-local" }}
        />
        <TextareaField
          key={fields.notes.key}
          field={fields.notes}
          label="Notes (optional)"
          textareaProps={{ rows: 3, maxLength: NOTES_MAX_LENGTH }}
        />
        <button type="submit" disabled={creating} className={primaryButtonClass}>
          Create Service
        </button>
      </Form>
    </>
  );
}
