import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { useMemo, type ReactNode } from "react";
import type { AddOn, QuoteServiceOption } from "~/content/types";
import type { QuoteConfirmation } from "~/features/quotes/quote-submission.server";
import { QUOTE_ESTIMATE_NOTE, QUOTE_SENT_TITLE } from "~/features/quotes/quote-copy";
import { estimateQuote } from "~/features/quotes/quote-estimate";
import { quoteEstimateMarkup } from "~/features/quotes/quote-estimate-markup";
import {
  QUOTE_ESTIMATE_ID,
  QUOTE_FORM_DATA_ID,
  QUOTE_FORM_ID,
  QUOTE_SENT_HEADING_ID,
  quoteFormData,
  serializeQuoteFormData,
} from "~/features/quotes/quote-form-data";
import { QuoteHoneypot } from "~/features/quotes/quote-honeypot";
import {
  createQuoteSchema,
  DOG_COUNT_OPTIONS,
  QUOTE_LIMITS,
  YARD_SIZE_OPTIONS,
  type QuoteField,
  type QuoteRequestInput,
} from "~/features/quotes/quote-schema";
import { useNonce } from "~/utils/nonce";

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
      {/* Always rendered: the browser script fills it when it checks the field (decision 068). */}
      <p id={field.errorId} className={errorClass} hidden={!field.errors?.length}>
        {field.errors?.join(" ")}
      </p>
    </div>
  );
}

/** React wants `key` passed directly, never spread. */
function withoutKey<T extends { key?: string }>({ key: _key, ...props }: T): Omit<T, "key"> {
  return props;
}

/**
 * The quote request form (SPEC section 2): a plain POST to /contact, rendered by the server with
 * the errors and values of a refused post. The page ships no React (decision 068): with
 * JavaScript, quote-form.browser.ts checks each field on blur with the server's own schema, keeps
 * the estimate in step with the chosen service and dog count (from the JSON block rendered
 * here) and marks the button busy. Conform's `useForm` only renders: no `onValidate`, and its
 * submit handler is left out, so even on a page the root hydrates (a toast, a live preview) the
 * form posts natively and the script alone works in the browser.
 */
export function QuoteForm({ serviceOptions, addOns, submitLabel, lastResult, focus, sent }: QuoteFormProps) {
  const nonce = useNonce();
  const schema = useMemo(() => createQuoteSchema(serviceOptions.map((option) => option.value)), [serviceOptions]);
  const [form, fields] = useForm<QuoteRequestInput>({
    id: QUOTE_FORM_ID,
    lastResult,
    constraint: getZodConstraint(schema),
  });

  if (sent) return <QuoteSent sent={sent} />;

  // The estimate of the values the server has: React renders it once and never again (the
  // initial values do not follow typing), so the script owns the element's content.
  const estimate = estimateQuote(serviceOptions, addOns, fields.service.initialValue, fields.dogs.initialValue);
  const auto = (name: QuoteField) => (focus === name ? { autoFocus: true } : {});
  const described = (field: FieldMetadata<unknown>, hint: boolean) => {
    const ids = [hint ? `${field.id}-hint` : null, field.errors?.length ? field.errorId : null].filter(Boolean);
    return ids.length ? ids.join(" ") : undefined;
  };
  const { onSubmit: _conformSubmit, ...formProps } = getFormProps(form);

  return (
    <form method="post" action="/contact" {...formProps} className="space-y-5">
      <script
        type="application/json"
        id={QUOTE_FORM_DATA_ID}
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: serializeQuoteFormData(quoteFormData(serviceOptions, addOns)) }}
      />
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
      <QuoteHoneypot />

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
            // The estimate describes the choice; an error comes first, as the script writes it.
            aria-describedby={[described(fields.service, false), QUOTE_ESTIMATE_ID].filter(Boolean).join(" ")}
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
        id={QUOTE_ESTIMATE_ID}
        aria-live="polite"
        className="min-h-6 rounded-lg text-brand-900 dark:text-brand-100 hc:text-black"
        // One markup for the server and the script (quote-estimate-markup.ts).
        dangerouslySetInnerHTML={{ __html: quoteEstimateMarkup(estimate) }}
      />

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
        data-busy-label="Sending..."
        className="inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand-700 px-6 py-3 text-lg font-semibold text-white shadow hover:bg-brand-800 aria-disabled:opacity-70 sm:w-auto dark:bg-brand-300 dark:text-brand-950 dark:hover:bg-brand-200 hc:bg-black"
      >
        {submitLabel}
      </button>
    </form>
  );
}

/**
 * The success screen: what happens next, the area warning and the estimate. Its heading takes
 * focus so that keyboard and screen reader users hear the news: the redirect's URL targets it
 * (#quote-sent-heading, which browsers focus when it is focusable), and quote-form.browser.ts
 * focuses it too. (A `#quote` fragment would not do: Chromium clears focus when the fragment's
 * target cannot take it, after any script or autofocus.)
 */
export function QuoteSent({ sent }: { sent: QuoteSentDetails }) {
  const details = sent.details;
  return (
    <div className="space-y-4" data-testid="quote-sent">
      <h3
        id={QUOTE_SENT_HEADING_ID}
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
      <a
        href="/contact#quote"
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        Send another request
      </a>
    </div>
  );
}
