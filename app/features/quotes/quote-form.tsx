import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, type ReactNode } from "react";
import type { AddOn, QuoteServiceOption } from "~/content/types";
import type { QuoteConfirmation } from "~/features/quotes/quote-submission.server";
import { QUOTE_ESTIMATE_NOTE, QUOTE_SENT_TITLE, quoteEstimateSentence } from "~/features/quotes/quote-copy";
import { estimateQuote } from "~/features/quotes/quote-estimate";
import {
  createQuoteSchema,
  DOG_COUNT_OPTIONS,
  HONEYPOT_FIELD,
  QUOTE_LIMITS,
  YARD_SIZE_OPTIONS,
  type QuoteField,
} from "~/features/quotes/quote-schema";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";

/** What the success screen shows (from the /contact loader's `sent` token). */
export type QuoteSentDetails = QuoteConfirmation;

export type QuoteFormProps = {
  serviceOptions: QuoteServiceOption[];
  addOns: AddOn[];
  submitLabel: string;
  /** The action's Conform result after a rejected post: errors and the visitor's values. */
  lastResult?: SubmissionResult<string[]> | null;
  /** The first invalid field of that result: focused on load when JavaScript is off. */
  focus?: QuoteField | null;
  /** Set after a successful post: the success screen replaces the form. */
  sent?: QuoteSentDetails | null;
};

const inputClass =
  "mt-1 block min-h-11 w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-700 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 dark:border-slate-400 dark:bg-slate-950 dark:text-white dark:aria-[invalid=true]:border-red-400 hc:border-black";
const labelClass = "block font-medium text-slate-900 dark:text-white";
const errorClass = "mt-1 text-sm font-medium text-red-800 dark:text-red-300";

function Field({
  field,
  label,
  hint,
  children,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={field.id} className={labelClass}>
        {label}
      </label>
      {hint ? (
        <p id={`${field.id}-hint`} className="text-sm text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      ) : null}
      {children}
      {field.errors?.length ? (
        <p id={field.errorId} className={errorClass}>
          {field.errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** React wants `key` passed directly, never spread. */
function withoutKey<T extends { key?: string }>({ key: _key, ...props }: T): Omit<T, "key"> {
  return props;
}

/**
 * The quote request form (SPEC section 2). A plain POST to /contact that works without
 * JavaScript; with it, Conform checks each field on blur with the server's own schema, and the
 * estimate follows the chosen service and dog count.
 */
export function QuoteForm({ serviceOptions, addOns, submitLabel, lastResult, focus, sent }: QuoteFormProps) {
  const navigation = useNavigation();
  const schema = useMemo(() => createQuoteSchema(serviceOptions.map((option) => option.value)), [serviceOptions]);
  const [form, fields] = useForm({
    id: "quote-form",
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  if (sent) return <QuoteSent sent={sent} />;

  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/contact");
  const estimate = estimateQuote(serviceOptions, addOns, fields.service.value, fields.dogs.value);
  const auto = (name: QuoteField) => (focus === name ? { autoFocus: true } : {});
  const described = (field: FieldMetadata<unknown>, hint: boolean) => {
    const ids = [hint ? `${field.id}-hint` : null, field.errors?.length ? field.errorId : null].filter(Boolean);
    return ids.length ? ids.join(" ") : undefined;
  };

  return (
    <Form method="post" action="/contact" {...getFormProps(form)} className="space-y-5">
      {form.errors?.length ? (
        <p
          id={form.errorId}
          role="alert"
          className="rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {form.errors.join(" ")}
        </p>
      ) : null}

      {/* Only bots see and fill this; people and screen readers never meet it. */}
      <HoneypotProvider nameFieldName={HONEYPOT_FIELD} validFromFieldName={null}>
        <HoneypotInputs label="Leave this field empty" />
      </HoneypotProvider>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field field={fields.name} label="Full name">
          <input
            {...withoutKey(getInputProps(fields.name, { type: "text" }))}
            key={fields.name.key}
            autoComplete="name"
            maxLength={QUOTE_LIMITS.name}
            className={inputClass}
            {...auto("name")}
          />
        </Field>
        <Field field={fields.phone} label="Phone">
          <input
            {...withoutKey(getInputProps(fields.phone, { type: "tel" }))}
            key={fields.phone.key}
            autoComplete="tel"
            inputMode="tel"
            maxLength={QUOTE_LIMITS.phone}
            className={inputClass}
            {...auto("phone")}
          />
        </Field>
        <Field field={fields.email} label="E-mail">
          <input
            {...withoutKey(getInputProps(fields.email, { type: "email" }))}
            key={fields.email.key}
            autoComplete="email"
            maxLength={QUOTE_LIMITS.email}
            className={inputClass}
            {...auto("email")}
          />
        </Field>
        <Field field={fields.address} label="Address">
          <input
            {...withoutKey(getInputProps(fields.address, { type: "text" }))}
            key={fields.address.key}
            // street-address is for a <textarea> (it may span lines); an <input> takes line 1.
            autoComplete="address-line1"
            maxLength={QUOTE_LIMITS.address}
            className={inputClass}
            {...auto("address")}
          />
        </Field>
        <Field field={fields.zip} label="ZIP code">
          <input
            {...withoutKey(getInputProps(fields.zip, { type: "text" }))}
            key={fields.zip.key}
            autoComplete="postal-code"
            inputMode="numeric"
            maxLength={QUOTE_LIMITS.zip}
            className={inputClass}
            {...auto("zip")}
          />
        </Field>
        <Field field={fields.dogs} label="Number of dogs">
          <select
            {...withoutKey(getSelectProps(fields.dogs))}
            key={fields.dogs.key}
            defaultValue={fields.dogs.initialValue ?? ""}
            className={inputClass}
            {...auto("dogs")}
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
        <Field field={fields.yardSize} label="Yard size">
          <select
            {...withoutKey(getSelectProps(fields.yardSize))}
            key={fields.yardSize.key}
            defaultValue={fields.yardSize.initialValue ?? ""}
            className={inputClass}
            {...auto("yardSize")}
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
        <Field field={fields.service} label="Preferred service">
          <select
            {...withoutKey(getSelectProps(fields.service))}
            key={fields.service.key}
            defaultValue={fields.service.initialValue ?? ""}
            aria-describedby={described(fields.service, false) ?? "quote-estimate"}
            className={inputClass}
            {...auto("service")}
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
      </div>

      <div
        id="quote-estimate"
        aria-live="polite"
        className="min-h-6 rounded-lg text-brand-900 dark:text-brand-100 hc:text-black"
      >
        {estimate ? (
          <div className="rounded-lg bg-brand-50 p-4 dark:bg-brand-950 hc:bg-white">
            <p className="text-lg font-semibold">{quoteEstimateSentence(estimate.label)}</p>
            {estimate.breakdown ? <p className="text-sm">{estimate.breakdown}</p> : null}
            <p className="text-sm">{QUOTE_ESTIMATE_NOTE}</p>
          </div>
        ) : null}
      </div>

      <Field field={fields.message} label="Message (optional)">
        <textarea
          {...withoutKey(getTextareaProps(fields.message))}
          key={fields.message.key}
          rows={4}
          maxLength={QUOTE_LIMITS.message}
          className={inputClass}
          {...auto("message")}
        />
      </Field>

      <button
        type="submit"
        disabled={submitting}
        className="inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand-700 px-6 py-3 text-lg font-semibold text-white shadow hover:bg-brand-800 disabled:opacity-70 sm:w-auto dark:bg-brand-300 dark:text-brand-950 dark:hover:bg-brand-200 hc:bg-black"
      >
        {submitting ? "Sending..." : submitLabel}
      </button>
    </Form>
  );
}

/** The success screen: what happens next, the area warning and the estimate. */
export function QuoteSent({ sent }: { sent: QuoteSentDetails }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // With JavaScript, move focus to the news so that keyboard and screen reader users hear it.
  useEffect(() => heading.current?.focus(), []);
  const details = sent.details;
  return (
    <div className="space-y-4" data-testid="quote-sent">
      <h3
        ref={heading}
        tabIndex={-1}
        className="text-xl font-bold text-brand-900 focus:outline-none dark:text-brand-100"
      >
        {QUOTE_SENT_TITLE}
      </h3>
      <p className="text-lg text-slate-800 dark:text-slate-100">{sent.nextSteps}</p>
      {details?.outsideArea ? (
        <p className="rounded-lg border-2 border-amber-600 bg-amber-50 p-4 font-medium text-amber-950 dark:bg-amber-950 dark:text-amber-50">
          {details.outsideArea}
        </p>
      ) : null}
      {details ? (
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold">Service</dt>
          <dd>{details.serviceLabel}</dd>
          <dt className="font-semibold">Dogs</dt>
          <dd>{details.dogs}</dd>
          <dt className="font-semibold">Yard size</dt>
          <dd>{details.yardSize}</dd>
          {details.estimateLabel ? (
            <>
              <dt className="font-semibold">Estimated price</dt>
              <dd>
                {details.estimateLabel}
                <span className="block text-sm text-slate-700 dark:text-slate-300">{QUOTE_ESTIMATE_NOTE}</span>
              </dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <Link
        to="/contact#quote"
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        Send another request
      </Link>
    </div>
  );
}
