import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import { useMemo } from "react";
import { cx, ErrorList, Field, SelectField, TextareaField } from "~/components/forms";
import { primaryButtonClass, tapLinkClass } from "~/components/ui-classes";
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
        <ErrorList
          id={form.errorId}
          errors={form.errors}
          role="alert"
          className="rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        />
      ) : null}

      {/* Only bots see and fill this; people and screen readers never meet it. */}
      <QuoteHoneypot />

      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          key={fields.name.key}
          field={fields.name}
          label="Full name"
          inputProps={{ type: "text", autoComplete: "name", maxLength: QUOTE_LIMITS.name, ...auto("name") }}
        />
        <Field
          key={fields.phone.key}
          field={fields.phone}
          label="Phone"
          inputProps={{
            type: "tel",
            autoComplete: "tel",
            inputMode: "tel",
            maxLength: QUOTE_LIMITS.phone,
            ...auto("phone"),
          }}
        />
        <Field
          key={fields.email.key}
          field={fields.email}
          label="E-mail"
          inputProps={{ type: "email", autoComplete: "email", maxLength: QUOTE_LIMITS.email, ...auto("email") }}
        />
        <Field
          key={fields.address.key}
          field={fields.address}
          label="Address"
          // street-address is for a <textarea> (it may span lines); an <input> takes line 1.
          inputProps={{
            type: "text",
            autoComplete: "address-line1",
            maxLength: QUOTE_LIMITS.address,
            ...auto("address"),
          }}
        />
        <Field
          key={fields.zip.key}
          field={fields.zip}
          label="ZIP code"
          inputProps={{
            type: "text",
            autoComplete: "postal-code",
            inputMode: "numeric",
            maxLength: QUOTE_LIMITS.zip,
            ...auto("zip"),
          }}
        />
        <ChoiceField
          key={fields.dogs.key}
          field={fields.dogs}
          label="Number of dogs"
          options={DOG_COUNT_OPTIONS}
          focused={focus === "dogs"}
        />
        <ChoiceField
          key={fields.yardSize.key}
          field={fields.yardSize}
          label="Yard size"
          options={YARD_SIZE_OPTIONS}
          focused={focus === "yardSize"}
        />
        <ChoiceField
          key={fields.service.key}
          field={fields.service}
          label="Preferred service"
          options={serviceOptions}
          focused={focus === "service"}
          // The estimate describes the choice; an error comes first, as the script writes it.
          describedBy={QUOTE_ESTIMATE_ID}
        />
      </div>

      <div
        id={QUOTE_ESTIMATE_ID}
        aria-live="polite"
        className="min-h-6 rounded-lg text-brand-900 dark:text-brand-100 hc:text-black"
        // One markup for the server and the script (quote-estimate-markup.ts).
        dangerouslySetInnerHTML={{ __html: quoteEstimateMarkup(estimate) }}
      />

      <TextareaField
        key={fields.message.key}
        field={fields.message}
        label="Message (optional)"
        textareaProps={{ rows: 4, maxLength: QUOTE_LIMITS.message, ...auto("message") }}
      />

      <button type="submit" data-busy-label="Sending..." className={cx(primaryButtonClass, "w-full text-lg sm:w-auto")}>
        {submitLabel}
      </button>
    </form>
  );
}

/**
 * A select of the quote form: it starts on a disabled "Choose…" (SPEC section 5: an empty value
 * cannot be chosen), or on the value a refused post sent.
 */
function ChoiceField({
  field,
  label,
  options,
  focused,
  describedBy,
}: {
  field: FieldMetadata<string>;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** The first invalid field of a refused post (focused on load when JavaScript is off). */
  focused: boolean;
  describedBy?: string;
}) {
  return (
    <SelectField
      field={field}
      label={label}
      describedBy={describedBy}
      selectProps={{ defaultValue: field.initialValue ?? "", ...(focused ? { autoFocus: true } : {}) }}
    >
      <option value="" disabled>
        Choose…
      </option>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </SelectField>
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
      <a href="/contact#quote" className={tapLinkClass}>
        Send another request
      </a>
    </div>
  );
}
