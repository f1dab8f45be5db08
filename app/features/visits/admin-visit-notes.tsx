import { Form } from "@remix-run/react";
import { fieldErrors, h3Class, panelClass, type AdminVisitData, type AdminVisitFormState } from "./admin-visit-view";
import { HealthNotesView } from "./health-notes-view";
import { HEALTH_FLAG_LABELS, HEALTH_FLAGS } from "./visit-constants";
import { CheckboxField, TextareaField } from "~/components/forms";
import { primaryButtonClass } from "~/components/ui-classes";

/** The visit page's two note forms: the admin's notes, and the health notes the customer sees. */
export function AdminVisitNotes({ visit, actionData, busy }: { visit: AdminVisitData["visit"] } & AdminVisitFormState) {
  // Each form shows only its own errors: both have a note field.
  const errorsOf = (intent: string, field: string) =>
    actionData?.intent === intent ? fieldErrors(actionData, field) : undefined;
  const flags = visit.healthFlags as string[];
  return (
    <section aria-labelledby="notes-heading" className="mt-8 grid gap-6 md:grid-cols-2">
      <Form method="post" className={panelClass}>
        <h3 id="notes-heading" className={h3Class}>
          Notes
        </h3>
        <input type="hidden" name="intent" value="notes" />
        <TextareaField
          key={visit.notes ?? ""}
          label="Notes"
          className="mt-3"
          textareaProps={{
            id: "visit-notes",
            name: "notes",
            rows: 4,
            maxLength: 2000,
            defaultValue: visit.notes ?? "",
          }}
          errors={errorsOf("notes", "notes")}
        />
        <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
          Save notes
        </button>
      </Form>
      <Form method="post" className={panelClass}>
        <input type="hidden" name="intent" value="health" />
        <fieldset>
          <legend className={h3Class}>Health notes</legend>
          {HEALTH_FLAGS.map((flag) => (
            <CheckboxField
              key={`${flag}-${flags.includes(flag)}`}
              label={HEALTH_FLAG_LABELS[flag]}
              className="mt-2"
              inputProps={{
                id: `health-${flag}`,
                name: "healthFlags",
                value: flag,
                defaultChecked: flags.includes(flag),
              }}
            />
          ))}
        </fieldset>
        <TextareaField
          key={visit.healthNote ?? ""}
          label="Health note"
          className="mt-3"
          textareaProps={{
            id: "health-note",
            name: "healthNote",
            rows: 3,
            maxLength: 2000,
            defaultValue: visit.healthNote ?? "",
          }}
          errors={errorsOf("health", "healthNote")}
        />
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
