import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import type { YardView } from "./yard-details";
import { yardSchema } from "./yard-schema";
import { CheckboxField, Field, TextareaField } from "~/components/forms";
import { TextConsentFields } from "~/features/notices/text-consent-fields";
import { primaryButtonClass } from "~/components/ui-classes";

/**
 * The yard profile form, for the customer ("Your Yard") and for admins (the customer's page).
 * Posts without JavaScript; with it, Conform shows the same messages as the server at once.
 */
export function YardForm({
  yard,
  lastResult,
  action,
  texts,
}: {
  yard: YardView | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
  action?: string;
  /** The customer's own form only: the mobile number and the consent to texts. */
  texts?: { businessName: string };
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
  ) => <Field field={fields[name]} label={label} inputProps={{ defaultValue: value ?? "", ...extra }} />;
  const area = (name: "hazards" | "accessNotes", label: string, value: string | null | undefined) => (
    <TextareaField
      field={fields[name]}
      label={label}
      className="sm:col-span-2"
      textareaProps={{ rows: 3, maxLength: 1000, defaultValue: value ?? "" }}
    />
  );

  return (
    <Form method="post" action={action} {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="yard" />
      {textField("street", "Street address", yard?.street, { autoComplete: "address-line1", maxLength: 200 })}
      {textField("city", "City", yard?.city, { autoComplete: "address-level2", maxLength: 100 })}
      {textField("zip", "ZIP", yard?.zip, { autoComplete: "postal-code", inputMode: "numeric", maxLength: 5 })}
      {/* autoComplete off: a password manager must not offer to save or fill the gate code. */}
      {textField("gateCode", "Gate code", yard?.gateCode, { autoComplete: "off", maxLength: 40, type: "password" })}
      {textField("gateLocation", "Gate location", yard?.gateLocation, { maxLength: 200 })}
      <Field
        field={fields.dogCount}
        label="Number of dogs"
        inputProps={{ type: "number", min: 0, max: 20, defaultValue: yard?.dogCount ?? 0 }}
      />
      {textField("dogNames", "Their names", yard?.dogNames, { maxLength: 300 })}
      <CheckboxField
        field={fields.looseDog}
        label="A dog may be loose in the yard"
        className="sm:col-span-2"
        inputProps={{ defaultChecked: yard?.looseDog ?? false }}
      />
      {area("hazards", "Other hazards", yard?.hazards)}
      {area("accessNotes", "Access notes", yard?.accessNotes)}
      <CheckboxField
        field={fields.notifyVisitEmails}
        label="E-mail me when a visit is completed or missed"
        className="sm:col-span-2"
        inputProps={{ defaultChecked: yard?.notifyVisitEmails ?? true }}
      />
      {texts ? (
        <TextConsentFields
          mobilePhone={fields.mobilePhone}
          textVisits={fields.textVisits}
          businessName={texts.businessName}
          saved={yard}
        />
      ) : null}
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          {busy ? "Saving…" : "Save yard profile"}
        </button>
      </div>
    </Form>
  );
}
