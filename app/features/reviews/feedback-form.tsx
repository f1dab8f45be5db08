import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { FEEDBACK_MAX_LENGTH, feedbackSchema } from "./feedback-schema";
import { TextareaField } from "~/components/forms";
import { primaryButtonClass } from "~/components/ui-classes";

/** "Tell us what to improve": posts without JavaScript; with it, Conform checks it at once. */
export function FeedbackForm({ lastResult }: { lastResult: SubmissionResult<string[]> | null | undefined }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "customer-feedback",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: feedbackSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4">
      <TextareaField
        field={fields.message}
        label="What could we do better?"
        textareaProps={{ rows: 6, maxLength: FEEDBACK_MAX_LENGTH }}
      />
      <div>
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          {busy ? "Sending…" : "Send to the owner"}
        </button>
      </div>
    </Form>
  );
}
