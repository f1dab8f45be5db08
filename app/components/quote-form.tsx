import { Form } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { estimateMonthlyPrice, formatPrice } from "~/content/pricing";
import type { AddOn, QuoteServiceOption } from "~/content/types";
import { DOG_COUNT_OPTIONS, dogCountFrom, YARD_SIZE_OPTIONS, type QuoteFieldName } from "~/utils/quote-fields";

type FieldErrors = Partial<Record<QuoteFieldName, string[] | undefined>>;

export type QuoteFormProps = {
  serviceOptions: QuoteServiceOption[];
  addOns: AddOn[];
  submitLabel: string;
  /** Set by the action when a submission comes back: the visitor's values and what to fix. */
  defaultValues?: Partial<Record<QuoteFieldName, string>>;
  errors?: FieldErrors;
  formError?: string;
  submitting?: boolean;
  /** Extra hidden inputs (e.g. a honeypot or CSRF token) from the action's author. */
  children?: ReactNode;
};

const inputClass =
  "mt-1 block min-h-11 w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-700 aria-[invalid=true]:border-red-700 dark:border-slate-500 dark:bg-slate-950 dark:text-white hc:border-black";
const labelClass = "block font-medium text-slate-900 dark:text-white";

function Field({
  name,
  label,
  errors,
  children,
}: {
  name: QuoteFieldName;
  label: string;
  errors?: string[];
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={`quote-${name}`} className={labelClass}>
        {label}
      </label>
      {children}
      {errors && errors.length > 0 ? (
        <p id={`quote-${name}-error`} className="mt-1 text-sm font-medium text-red-800 dark:text-red-300">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** aria attributes linking a control to its error message, when it has one. */
function invalid(name: QuoteFieldName, errors: FieldErrors | undefined) {
  const has = Boolean(errors?.[name]?.length);
  return has ? { "aria-invalid": true, "aria-describedby": `quote-${name}-error` } : {};
}

/**
 * The quote request form (SPEC section 2): posts to /contact, whose action validates it.
 * Works without JavaScript; with it, a price estimate follows the chosen service and dogs.
 */
export function QuoteForm({
  serviceOptions,
  addOns,
  submitLabel,
  defaultValues = {},
  errors,
  formError,
  submitting = false,
  children,
}: QuoteFormProps) {
  const [service, setService] = useState(defaultValues.service ?? "");
  const [dogs, setDogs] = useState(defaultValues.dogs ?? "");
  const estimate = describeEstimate(serviceOptions, addOns, service, dogs);

  return (
    <Form
      method="post"
      action="/contact"
      className="space-y-5"
      aria-describedby={formError ? "quote-form-error" : undefined}
    >
      {formError ? (
        <p
          id="quote-form-error"
          role="alert"
          className="rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {formError}
        </p>
      ) : null}
      {children}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field name="name" label="Full name" errors={errors?.name}>
          <input
            id="quote-name"
            name="name"
            type="text"
            autoComplete="name"
            required
            defaultValue={defaultValues.name}
            className={inputClass}
            {...invalid("name", errors)}
          />
        </Field>
        <Field name="phone" label="Phone" errors={errors?.phone}>
          <input
            id="quote-phone"
            name="phone"
            type="tel"
            autoComplete="tel"
            required
            defaultValue={defaultValues.phone}
            className={inputClass}
            {...invalid("phone", errors)}
          />
        </Field>
        <Field name="email" label="E-mail" errors={errors?.email}>
          <input
            id="quote-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={defaultValues.email}
            className={inputClass}
            {...invalid("email", errors)}
          />
        </Field>
        <Field name="address" label="Address / ZIP code" errors={errors?.address}>
          <input
            id="quote-address"
            name="address"
            type="text"
            autoComplete="street-address"
            required
            defaultValue={defaultValues.address}
            className={inputClass}
            {...invalid("address", errors)}
          />
        </Field>
        <Field name="dogs" label="Number of dogs" errors={errors?.dogs}>
          <select
            id="quote-dogs"
            name="dogs"
            required
            value={dogs}
            onChange={(event) => setDogs(event.target.value)}
            className={inputClass}
            {...invalid("dogs", errors)}
          >
            <option value="" disabled>
              Choose…
            </option>
            {DOG_COUNT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
        <Field name="yardSize" label="Yard size" errors={errors?.yardSize}>
          <select
            id="quote-yardSize"
            name="yardSize"
            required
            defaultValue={defaultValues.yardSize ?? ""}
            className={inputClass}
            {...invalid("yardSize", errors)}
          >
            <option value="" disabled>
              Choose…
            </option>
            {YARD_SIZE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field name="service" label="Preferred service" errors={errors?.service}>
        <select
          id="quote-service"
          name="service"
          required
          value={service}
          onChange={(event) => setService(event.target.value)}
          className={inputClass}
          {...invalid("service", errors)}
        >
          <option value="" disabled>
            Choose…
          </option>
          {serviceOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
      <p aria-live="polite" className="min-h-6 font-medium text-brand-800 dark:text-brand-200">
        {estimate}
      </p>
      <Field name="message" label="Message (optional)" errors={errors?.message}>
        <textarea
          id="quote-message"
          name="message"
          rows={4}
          defaultValue={defaultValues.message}
          className={inputClass}
          {...invalid("message", errors)}
        />
      </Field>
      <button
        type="submit"
        disabled={submitting}
        className="inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand-700 px-6 py-3 text-lg font-semibold text-white shadow hover:bg-brand-800 disabled:opacity-70 sm:w-auto dark:bg-brand-400 dark:text-brand-950 dark:hover:bg-brand-300 hc:bg-black"
      >
        {submitLabel}
      </button>
    </Form>
  );
}

/** "Estimated price: $104/month" for a subscription, the plan's price for a one-time visit. */
function describeEstimate(options: QuoteServiceOption[], addOns: AddOn[], service: string, dogs: string): string {
  const plan = options.find((option) => option.value === service)?.plan;
  if (!plan) return "";
  const count = dogCountFrom(dogs);
  if (plan.price.unit !== "month") return `Price: ${formatPrice(plan.price)}`;
  if (count === null) return `Price: ${formatPrice(plan.price)}`;
  const monthly = estimateMonthlyPrice(plan.price, count, addOns);
  return monthly === null ? "" : `Estimated price: ${formatPrice({ amount: monthly, unit: "month" })}`;
}
