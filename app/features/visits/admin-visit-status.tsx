import { Form } from "@remix-run/react";
import { fieldErrors, h3Class, panelClass, type AdminVisitData, type AdminVisitFormState } from "./admin-visit-view";
import { MISSED_REASON_LABELS, MISSED_REASONS } from "./visit-constants";
import { VISIT_ACTIONS, type VisitAction } from "./visit-transitions";
import { CheckboxField, ErrorList, Field } from "~/components/forms";
import { CompletionLocationFields } from "~/features/yards/yard-location-form";
import { labelClass, primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";

type Errors = string[] | undefined;

/** The visit page's Status section: the outcome buttons, the missed form and the two date forms. */
export function AdminVisitStatus({
  visit,
  actionData,
  busy,
}: { visit: AdminVisitData["visit"] } & AdminVisitFormState) {
  const errors = (field: string) => fieldErrors(actionData, field);
  const can = (action: VisitAction) => (visit.allowed as readonly string[]).includes(action);
  return (
    <section aria-labelledby="status-heading" className="mt-6">
      <h3 id="status-heading" className={h3Class}>
        Status
      </h3>
      <div className="mt-3 flex flex-wrap items-start gap-3">
        {(["complete", "skip", "cancel", "reopen"] as const).filter(can).map((action) => (
          <Form method="post" key={action}>
            <input type="hidden" name="intent" value={action} />
            {action === "complete" ? <CompletionLocationFields /> : null}
            <button
              type="submit"
              disabled={busy}
              className={action === "complete" ? primaryButtonClass : secondaryButtonClass}
            >
              {VISIT_ACTIONS[action].label}
            </button>
          </Form>
        ))}
      </div>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        {can("miss") ? (
          <MissedForm reasonErrors={errors("reason")} textErrors={errors("reasonText")} busy={busy} />
        ) : null}
        {can("reschedule") ? (
          <DateForm
            intent="reschedule"
            defaultValue={visit.dateInput}
            label="New date and time"
            errors={errors("serviceDate")}
            busy={busy}
          />
        ) : null}
        {can("return-visit") && !visit.returnVisit ? (
          <DateForm
            intent="return-visit"
            defaultValue={visit.returnDateInput}
            label="Return visit date and time"
            errors={errors("serviceDate")}
            busy={busy}
          />
        ) : null}
      </div>
    </section>
  );
}

function MissedForm({ reasonErrors, textErrors, busy }: { reasonErrors: Errors; textErrors: Errors; busy: boolean }) {
  return (
    <Form method="post" className={panelClass}>
      <input type="hidden" name="intent" value="miss" />
      <fieldset aria-describedby={reasonErrors?.length ? "miss-reason-error" : undefined}>
        <legend className={labelClass}>Why was the visit missed?</legend>
        {MISSED_REASONS.map((reason) => (
          <CheckboxField
            key={reason}
            label={MISSED_REASON_LABELS[reason]}
            className="mt-2"
            inputProps={{ id: `miss-reason-${reason}`, type: "radio", name: "reason", value: reason, required: true }}
          />
        ))}
      </fieldset>
      <ErrorList id="miss-reason-error" errors={reasonErrors} />
      <Field
        label="What happened (required for Other)"
        className="mt-3"
        inputProps={{ id: "miss-reason-text", name: "reasonText", maxLength: 500 }}
        errors={textErrors}
      />
      <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-4`}>
        {VISIT_ACTIONS.miss.label}
      </button>
    </Form>
  );
}

function DateForm({
  intent,
  defaultValue,
  label,
  errors,
  busy,
}: {
  intent: "reschedule" | "return-visit";
  defaultValue: string;
  label: string;
  errors: Errors;
  busy: boolean;
}) {
  const id = `${intent}-date`;
  return (
    <Form method="post" className={panelClass}>
      <input type="hidden" name="intent" value={intent} />
      <Field
        label={label}
        inputProps={{ id, type: "datetime-local", name: "serviceDate", required: true, defaultValue }}
        errors={errors}
      />
      <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-4`}>
        {VISIT_ACTIONS[intent].label}
      </button>
    </Form>
  );
}
