import { Form } from "@remix-run/react";
import { fieldError, h3Class, panelClass, type AdminVisitData, type AdminVisitFormState } from "./admin-visit-view";
import { HealthNotesView } from "./health-notes-view";
import { HEALTH_FLAG_LABELS, HEALTH_FLAGS } from "./visit-constants";
import { errorClass, fieldClass, labelClass, primaryButtonClass } from "~/components/form-classes";

/** The visit page's two note forms: the admin's notes, and the health notes the customer sees. */
export function AdminVisitNotes({ visit, actionData, busy }: { visit: AdminVisitData["visit"] } & AdminVisitFormState) {
  // Each form shows only its own errors: both have a note field.
  const errorOf = (intent: string, field: string) =>
    actionData?.intent === intent ? fieldError(actionData, field) : undefined;
  const notesError = errorOf("notes", "notes");
  const healthNoteError = errorOf("health", "healthNote");
  const flags = visit.healthFlags as string[];
  return (
    <section aria-labelledby="notes-heading" className="mt-8 grid gap-6 md:grid-cols-2">
      <Form method="post" className={panelClass}>
        <h3 id="notes-heading" className={h3Class}>
          Notes
        </h3>
        <input type="hidden" name="intent" value="notes" />
        <label htmlFor="visit-notes" className={`${labelClass} mt-3`}>
          Notes
        </label>
        <textarea
          id="visit-notes"
          name="notes"
          rows={4}
          maxLength={2000}
          defaultValue={visit.notes ?? ""}
          key={visit.notes ?? ""}
          className={fieldClass}
          aria-invalid={notesError ? true : undefined}
        />
        {notesError ? <p className={errorClass}>{notesError}</p> : null}
        <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
          Save notes
        </button>
      </Form>
      <Form method="post" className={panelClass}>
        <input type="hidden" name="intent" value="health" />
        <fieldset>
          <legend className={h3Class}>Health notes</legend>
          {HEALTH_FLAGS.map((flag) => (
            <label key={flag} className="mt-2 flex min-h-11 items-center gap-2">
              <input
                type="checkbox"
                name="healthFlags"
                value={flag}
                defaultChecked={flags.includes(flag)}
                key={`${flag}-${flags.includes(flag)}`}
                className="h-5 w-5"
              />
              {HEALTH_FLAG_LABELS[flag]}
            </label>
          ))}
        </fieldset>
        <label htmlFor="health-note" className={`${labelClass} mt-3`}>
          Health note
        </label>
        <textarea
          id="health-note"
          name="healthNote"
          rows={3}
          maxLength={2000}
          defaultValue={visit.healthNote ?? ""}
          key={visit.healthNote ?? ""}
          className={fieldClass}
        />
        {healthNoteError ? <p className={errorClass}>{healthNoteError}</p> : null}
        <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
          Save health notes
        </button>
        <div className="mt-4">
          <HealthNotesView flags={visit.healthFlags} note={visit.healthNote} />
        </div>
      </Form>
    </section>
  );
}
