import type { FieldMetadata } from "@conform-to/react";
import { CheckboxField, Field } from "~/components/forms";

/**
 * "Mobile number" and "Text me about my visits" on "Your Yard" (docs/decisions/097). Unchecked
 * unless the customer agreed before; the consent words say who texts, about what, how often,
 * that consent is not a condition of service, and how to stop (the carriers' 10DLC rules).
 */
export function TextConsentFields({
  mobilePhone,
  textVisits,
  businessName,
  saved,
}: {
  mobilePhone: FieldMetadata<string | undefined>;
  textVisits: FieldMetadata<"on" | undefined>;
  businessName: string;
  saved: { mobilePhone: string | null; textVisits: boolean } | null;
}) {
  return (
    <fieldset className="grid gap-2 sm:col-span-2">
      <legend className="font-semibold text-slate-900 dark:text-white">Texts about your visits</legend>
      <Field
        field={mobilePhone}
        label="Mobile number"
        description="A US mobile number, like 702-555-0123."
        inputProps={{ type: "tel", autoComplete: "tel", maxLength: 25, defaultValue: saved?.mobilePhone ?? "" }}
      />
      <CheckboxField
        field={textVisits}
        label="Text me about my visits"
        description={`By checking this box you agree to receive automated text messages from ${businessName} at the mobile number above when your technician is on the way. About one message per visit. Consent is not a condition of service. Message and data rates may apply. Reply STOP to opt out, HELP for help.`}
        inputProps={{ defaultChecked: saved?.textVisits ?? false }}
      />
    </fieldset>
  );
}
