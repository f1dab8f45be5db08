import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import {
  changePlanSchema,
  MAX_PLAN_DOGS,
  pausePlanSchema,
  PLAN_NOTES_MAX_LENGTH,
  startPlanSchema,
  type CataloguePlanOption,
} from "./admin-plan-schema";
import { WEEKDAY_NAMES } from "./plan-schedule";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "~/components/forms";
import { hintClass, labelClass, primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";
import { YARD_SIZE_OPTIONS } from "~/features/quotes/quote-schema";
import { PLAN_WEEKDAYS } from "../../../db/enums";

/**
 * The Plan section's forms with fields (decision 017's kit, Conform): "Start plan", "Change plan"
 * and "Pause". Each posts with `intent` to the customer page's action and works without
 * JavaScript; with it, Conform shows the same messages before anything is sent.
 */

type LastResult = SubmissionResult<string[]> | undefined;

export type PlanFieldValues = {
  cataloguePlanId: string;
  weekdays: number[];
  dogCount: number;
  yardSize: string;
  notes: string;
};

const gridClass = "mt-4 grid gap-4 sm:grid-cols-2";

/** The fields "Start plan" and "Change plan" share: catalogue plan, service days, dogs, yard, notes. */
// Conform's metadata of the shared fields, from either form.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PlanFieldsMetadata = Record<keyof PlanFieldValues, FieldMetadata<any, any, string[]>>;

export function PlanFields({
  formId,
  fields,
  catalogue,
}: {
  formId: string;
  fields: PlanFieldsMetadata;
  catalogue: readonly CataloguePlanOption[];
}) {
  const weekdays = fields.weekdays;
  const checked = new Set([weekdays.initialValue ?? []].flat().map(String));
  const errorId = `${formId}-weekdays-error`;
  const hintId = `${formId}-weekdays-hint`;
  const invalid = Boolean(weekdays.errors?.length);
  return (
    <>
      <SelectField
        key={fields.cataloguePlanId.key}
        field={fields.cataloguePlanId}
        label="Catalogue plan"
        selectProps={{ required: true }}
      >
        <option value="">Choose a plan</option>
        {catalogue.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name} ({plan.visitsPerWeek === 1 ? "1 visit" : `${plan.visitsPerWeek} visits`} a week)
          </option>
        ))}
      </SelectField>
      <fieldset
        className="sm:row-span-2"
        aria-describedby={[invalid ? errorId : null, hintId].filter(Boolean).join(" ")}
      >
        <legend className={labelClass}>Service days</legend>
        <p id={hintId} className={hintClass}>
          As many days as the plan&apos;s visits a week.
        </p>
        {PLAN_WEEKDAYS.map((day) => {
          const { key: _key, ...props } = getInputProps(weekdays, { type: "checkbox", value: String(day) });
          return (
            <CheckboxField
              key={day}
              label={WEEKDAY_NAMES[day]}
              inputProps={{
                ...props,
                id: `${formId}-weekday-${day}`,
                defaultChecked: checked.has(String(day)),
              }}
            />
          );
        })}
        <ErrorList id={errorId} errors={weekdays.errors} />
      </fieldset>
      <Field
        field={fields.dogCount}
        label="Dogs"
        inputProps={{ type: "number", min: 1, max: MAX_PLAN_DOGS, required: true, inputMode: "numeric" }}
      />
      <SelectField key={fields.yardSize.key} field={fields.yardSize} label="Yard size" selectProps={{ required: true }}>
        <option value="">Choose a yard size</option>
        {YARD_SIZE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <TextareaField
        field={fields.notes}
        label="Notes (optional)"
        className="sm:col-span-2"
        textareaProps={{ rows: 3, maxLength: PLAN_NOTES_MAX_LENGTH }}
      />
    </>
  );
}

function FormMessage({ id, errors }: { id: string; errors: string[] | undefined }) {
  return <ErrorList id={id} errors={errors} className="sm:col-span-2 font-medium text-red-800 dark:text-red-300" />;
}

export function StartPlanForm({
  catalogue,
  defaults,
  lastResult,
  busy,
}: {
  catalogue: readonly CataloguePlanOption[];
  defaults: PlanFieldValues & { startDate: string };
  lastResult: LastResult;
  busy: boolean;
}) {
  const [form, fields] = useForm({
    id: "start-plan",
    lastResult,
    defaultValue: { ...defaults, dogCount: String(defaults.dogCount), weekdays: defaults.weekdays.map(String) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: startPlanSchema(catalogue) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className={gridClass}>
      <input type="hidden" name="intent" value="start-plan" />
      <FormMessage id={form.errorId} errors={form.errors} />
      <PlanFields formId={form.id} fields={fields} catalogue={catalogue} />
      <Field field={fields.startDate} label="Start date" inputProps={{ type: "date", required: true }} />
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Start plan
        </button>
      </div>
    </Form>
  );
}

export function ChangePlanForm({
  planId,
  catalogue,
  defaults,
  lastResult,
  busy,
}: {
  planId: string;
  catalogue: readonly CataloguePlanOption[];
  defaults: PlanFieldValues & { fromDate: string };
  lastResult: LastResult;
  busy: boolean;
}) {
  const [form, fields] = useForm({
    id: "change-plan",
    lastResult,
    defaultValue: { ...defaults, dogCount: String(defaults.dogCount), weekdays: defaults.weekdays.map(String) },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePlanSchema(catalogue) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className={gridClass}>
      <input type="hidden" name="intent" value="change-plan" />
      <input type="hidden" name="planId" value={planId} />
      <FormMessage id={form.errorId} errors={form.errors} />
      <PlanFields formId={form.id} fields={fields} catalogue={catalogue} />
      <Field
        field={fields.fromDate}
        label="From"
        description="Visits before this day stay as they are."
        inputProps={{ type: "date", required: true }}
      />
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Change plan
        </button>
      </div>
    </Form>
  );
}

export function PausePlanForm({
  planId,
  defaults,
  longestPauseDays,
  lastResult,
  busy,
}: {
  planId: string;
  defaults: { from: string };
  longestPauseDays: number;
  lastResult: LastResult;
  busy: boolean;
}) {
  const [form, fields] = useForm({
    id: "pause-plan",
    lastResult,
    defaultValue: { ...defaults, until: "" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: pausePlanSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className={gridClass}>
      <input type="hidden" name="intent" value="pause-plan" />
      <input type="hidden" name="planId" value={planId} />
      <FormMessage id={form.errorId} errors={form.errors} />
      <Field field={fields.from} label="From" inputProps={{ type: "date", required: true }} />
      <Field
        field={fields.until}
        label="Until"
        description={`The last day of the pause; at most ${longestPauseDays} days in all.`}
        inputProps={{ type: "date", required: true }}
      />
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={secondaryButtonClass}>
          Pause
        </button>
      </div>
    </Form>
  );
}
