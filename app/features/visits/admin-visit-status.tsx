import { Form } from "@remix-run/react";
import {
  fieldError,
  panelClass,
  h3Class,
  secondaryButtonClass,
  type AdminVisitData,
  type AdminVisitFormState,
} from "./admin-visit-view";
import { MISSED_REASON_LABELS, MISSED_REASONS } from "./visit-constants";
import { VISIT_ACTIONS, type VisitAction } from "./visit-transitions";
import { errorClass, fieldClass, labelClass, primaryButtonClass } from "~/components/form-classes";

/** The visit page's Status section: the outcome buttons, the missed form and the two date forms. */
export function AdminVisitStatus({
  visit,
  actionData,
  busy,
}: { visit: AdminVisitData["visit"] } & AdminVisitFormState) {
  const errors = (field: string) => fieldError(actionData, field);
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
          <MissedForm reasonError={errors("reason")} textError={errors("reasonText")} busy={busy} />
        ) : null}
        {can("reschedule") ? (
          <DateForm
            intent="reschedule"
            defaultValue={visit.dateInput}
            label="New date and time"
            error={errors("serviceDate")}
            busy={busy}
          />
        ) : null}
        {can("return-visit") && !visit.returnVisit ? (
          <DateForm
            intent="return-visit"
            defaultValue={visit.returnDateInput}
            label="Return visit date and time"
            error={errors("serviceDate")}
            busy={busy}
          />
        ) : null}
      </div>
    </section>
  );
}

function MissedForm({
  reasonError,
  textError,
  busy,
}: {
  reasonError: string | undefined;
  textError: string | undefined;
  busy: boolean;
}) {
  return (
    <Form method="post" className={panelClass}>
      <input type="hidden" name="intent" value="miss" />
      <fieldset aria-describedby={reasonError ? "miss-reason-error" : undefined}>
        <legend className={labelClass}>Why was the visit missed?</legend>
        {MISSED_REASONS.map((reason) => (
          <label key={reason} className="mt-2 flex min-h-11 items-center gap-2">
            <input type="radio" name="reason" value={reason} required className="h-5 w-5" />
            {MISSED_REASON_LABELS[reason]}
          </label>
        ))}
      </fieldset>
      {reasonError ? (
        <p id="miss-reason-error" className={errorClass}>
          {reasonError}
        </p>
      ) : null}
      <label htmlFor="miss-reason-text" className={`${labelClass} mt-3`}>
        What happened (required for Other)
      </label>
      <input
        id="miss-reason-text"
        name="reasonText"
        maxLength={500}
        className={fieldClass}
        aria-invalid={textError ? true : undefined}
        aria-describedby={textError ? "miss-reason-text-error" : undefined}
      />
      {textError ? (
        <p id="miss-reason-text-error" className={errorClass}>
          {textError}
        </p>
      ) : null}
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
  error,
  busy,
}: {
  intent: "reschedule" | "return-visit";
  defaultValue: string;
  label: string;
  error: string | undefined;
  busy: boolean;
}) {
  const id = `${intent}-date`;
  return (
    <Form method="post" className={panelClass}>
      <input type="hidden" name="intent" value={intent} />
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        type="datetime-local"
        name="serviceDate"
        required
        defaultValue={defaultValue}
        className={fieldClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className={errorClass}>
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-4`}>
        {VISIT_ACTIONS[intent].label}
      </button>
    </Form>
  );
}
