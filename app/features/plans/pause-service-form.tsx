import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useNavigation } from "@remix-run/react";
import { pauseSchema } from "./your-plan-schema";
import { h2Class, mutedClass, sectionClass, type YourPlanActionData, type YourPlanData } from "./your-plan-view";
import { ErrorList, Field } from "~/components/forms";
import { errorClass, primaryButtonClass } from "~/components/ui-classes";

/**
 * "Pause service": From and Until. Posts without JavaScript (the date inputs' min and max hold
 * the limits); with it, Conform checks the same schema as the server before posting.
 */
export function PauseServiceForm({
  planId,
  limits,
  actionData,
  busy,
}: {
  planId: string;
  limits: YourPlanData["pause"];
  actionData: YourPlanActionData | undefined;
  busy: boolean;
}) {
  const navigation = useNavigation();
  const lastResult = actionData?.intent === "pause" ? actionData.result : undefined;
  const [form, fields] = useForm({
    id: "pause-service",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pauseSchema(limits) }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <section aria-labelledby="pause-heading" className={sectionClass}>
      <h2 id="pause-heading" className={h2Class}>
        Pause service
      </h2>
      <p className={`mt-1 ${mutedClass}`}>
        Going away? Pause for up to {limits.longestPauseDays} days: the visits from From to Until are skipped, and your
        service goes on by itself after Until.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="pause" />
        <input type="hidden" name="planId" value={planId} />
        <ErrorList id={form.errorId} errors={form.errors} className={`${errorClass} sm:col-span-2`} />
        <Field
          field={fields.from}
          label="From"
          description="Today or later."
          inputProps={{ type: "date", min: limits.today, max: limits.latestFrom, required: true }}
        />
        <Field
          field={fields.until}
          label="Until"
          description={`At most ${limits.longestPauseDays} days, From and Until included.`}
          inputProps={{ type: "date", min: limits.today, max: limits.latestUntil, required: true }}
        />
        <div className="sm:col-span-2">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            Pause service
          </button>
        </div>
      </Form>
    </section>
  );
}
