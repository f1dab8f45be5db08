import { Form } from "@remix-run/react";
import { SelectField } from "~/components/forms";
import { primaryButtonClass } from "~/components/ui-classes";

/**
 * "Assigned to" on a visit's page (decision 123), for office and owner: who works the visit. A
 * plain form (works without JavaScript); the route checks the role again on the post.
 */
export function VisitAssignmentForm({
  assignedTo,
  options,
  busy,
  error,
}: {
  assignedTo: string | null;
  options: { id: string; label: string }[];
  busy: boolean;
  error?: string;
}) {
  return (
    <Form method="post" className="mt-6 rounded-xl border border-slate-300 p-5 dark:border-slate-600">
      <input type="hidden" name="intent" value="assign" />
      <SelectField
        label="Assigned to"
        selectProps={{ id: "visit-assigned-to", name: "assignedTo", defaultValue: assignedTo ?? "" }}
        errors={error ? [error] : undefined}
      >
        <option value="">Nobody yet</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
        Save assignment
      </button>
    </Form>
  );
}
