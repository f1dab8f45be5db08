import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import type { YardView } from "./yard-details";
import { yardSchema } from "./yard-schema";
import { errorClass, fieldClass, labelClass, primaryButtonClass } from "~/components/form-classes";

/**
 * The yard profile form, for the customer ("Your Yard") and for admins (the customer's page).
 * Posts without JavaScript; with it, Conform shows the same messages as the server at once.
 */
export function YardForm({
  yard,
  lastResult,
  action,
}: {
  yard: YardView | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
  action?: string;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "yard-profile",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: yardSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";

  const textField = (
    name: "street" | "city" | "zip" | "gateCode" | "gateLocation" | "dogNames",
    label: string,
    value: string | null | undefined,
    extra: React.InputHTMLAttributes<HTMLInputElement> = {},
  ) => {
    const field = fields[name];
    return (
      <div>
        <label htmlFor={field.id} className={labelClass}>
          {label}
        </label>
        <input
          id={field.id}
          name={field.name}
          defaultValue={value ?? ""}
          aria-invalid={field.errors ? true : undefined}
          aria-describedby={field.errors ? field.errorId : undefined}
          className={fieldClass}
          {...extra}
        />
        {field.errors ? (
          <p id={field.errorId} className={errorClass}>
            {field.errors[0]}
          </p>
        ) : null}
      </div>
    );
  };
  const area = (name: "hazards" | "accessNotes", label: string, value: string | null | undefined) => {
    const field = fields[name];
    return (
      <div className="sm:col-span-2">
        <label htmlFor={field.id} className={labelClass}>
          {label}
        </label>
        <textarea
          id={field.id}
          name={field.name}
          rows={3}
          maxLength={1000}
          defaultValue={value ?? ""}
          aria-invalid={field.errors ? true : undefined}
          aria-describedby={field.errors ? field.errorId : undefined}
          className={fieldClass}
        />
        {field.errors ? (
          <p id={field.errorId} className={errorClass}>
            {field.errors[0]}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <Form method="post" action={action} {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="yard" />
      {textField("street", "Street address", yard?.street, { autoComplete: "address-line1", maxLength: 200 })}
      {textField("city", "City", yard?.city, { autoComplete: "address-level2", maxLength: 100 })}
      {textField("zip", "ZIP", yard?.zip, { autoComplete: "postal-code", inputMode: "numeric", maxLength: 5 })}
      {/* autoComplete off: a password manager must not offer to save or fill the gate code. */}
      {textField("gateCode", "Gate code", yard?.gateCode, { autoComplete: "off", maxLength: 40, type: "password" })}
      {textField("gateLocation", "Gate location", yard?.gateLocation, { maxLength: 200 })}
      <div>
        <label htmlFor={fields.dogCount.id} className={labelClass}>
          Number of dogs
        </label>
        <input
          id={fields.dogCount.id}
          name={fields.dogCount.name}
          type="number"
          min={0}
          max={20}
          defaultValue={yard?.dogCount ?? 0}
          aria-invalid={fields.dogCount.errors ? true : undefined}
          aria-describedby={fields.dogCount.errors ? fields.dogCount.errorId : undefined}
          className={fieldClass}
        />
        {fields.dogCount.errors ? (
          <p id={fields.dogCount.errorId} className={errorClass}>
            {fields.dogCount.errors[0]}
          </p>
        ) : null}
      </div>
      {textField("dogNames", "Their names", yard?.dogNames, { maxLength: 300 })}
      <label className="flex min-h-11 items-center gap-2 sm:col-span-2">
        <input
          type="checkbox"
          name={fields.looseDog.name}
          defaultChecked={yard?.looseDog ?? false}
          className="h-5 w-5"
        />
        A dog may be loose in the yard
      </label>
      {area("hazards", "Other hazards", yard?.hazards)}
      {area("accessNotes", "Access notes", yard?.accessNotes)}
      <label className="flex min-h-11 items-center gap-2 sm:col-span-2">
        <input
          type="checkbox"
          name={fields.notifyVisitEmails.name}
          defaultChecked={yard?.notifyVisitEmails ?? true}
          className="h-5 w-5"
        />
        E-mail me when a visit is completed or missed
      </label>
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          {busy ? "Saving…" : "Save yard profile"}
        </button>
      </div>
    </Form>
  );
}
