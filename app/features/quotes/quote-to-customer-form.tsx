import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { createCustomerSchema, CREATE_CUSTOMER_INTENT, type CreateCustomerDefaults } from "./quote-to-customer-schema";
import { ErrorList, Field } from "~/components/forms";
import { linkClass, primaryButtonClass } from "~/components/ui-classes";
import { PlanFields } from "~/features/plans/admin-plan-forms";
import type { CataloguePlanOption } from "~/features/plans/admin-plan-schema";

/**
 * The quote page's "Create customer and plan" (decision 096): the form pre-filled from the
 * request, or, once it has been used, what the request became. The form posts with `intent`
 * and works without JavaScript; with it, Conform shows the same messages before anything is sent.
 */

const sectionClass = "mt-10 rounded-xl border border-slate-300 p-5 dark:border-slate-600";
const headingClass = "text-xl font-semibold text-slate-900 dark:text-white";

export function CreateCustomerForm({
  catalogue,
  defaults,
  lastResult,
  busy,
}: {
  catalogue: readonly CataloguePlanOption[];
  defaults: CreateCustomerDefaults;
  lastResult: SubmissionResult<string[]> | undefined;
  busy: boolean;
}) {
  const [form, fields] = useForm({
    id: "create-customer",
    lastResult,
    defaultValue: defaults,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createCustomerSchema(catalogue) }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <section aria-labelledby="create-customer-heading" className={sectionClass}>
      <h3 id="create-customer-heading" className={headingClass}>
        Create customer and plan
      </h3>
      <p className="mt-1 text-slate-700 dark:text-slate-200">
        Makes the customer&apos;s account and starts the plan. The customer gets an e-mail with a link to set their
        password (it works once, for 7 days). If an account with this e-mail exists already, that account gets the plan.
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value={CREATE_CUSTOMER_INTENT} />
        <ErrorList
          id={form.errorId}
          errors={form.errors}
          className="sm:col-span-2 font-medium text-red-800 dark:text-red-300"
        />
        <Field field={fields.fullName} label="Name" inputProps={{ required: true, autoComplete: "off" }} />
        <Field
          field={fields.email}
          label="E-mail"
          inputProps={{ type: "email", required: true, autoComplete: "off" }}
        />
        <Field field={fields.street} label="Street address" inputProps={{ required: true, autoComplete: "off" }} />
        <Field field={fields.city} label="City (optional)" inputProps={{ autoComplete: "off" }} />
        <Field
          field={fields.zip}
          label="ZIP code"
          inputProps={{ required: true, inputMode: "numeric", autoComplete: "off" }}
        />
        <PlanFields formId={form.id} fields={fields} catalogue={catalogue} />
        <Field field={fields.startDate} label="Start date" inputProps={{ type: "date", required: true }} />
        <div className="sm:col-span-2">
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            Create customer and plan
          </button>
        </div>
      </Form>
    </section>
  );
}

type ConvertedCustomer = { id: string; name: string | null; email: string };

/** The way from a converted request to its customer's page. */
function CustomerPageLink({ customer }: { customer: ConvertedCustomer }) {
  return (
    <p className="mt-3">
      <Link to={`/admin-dashboard/customers/${customer.id}`} className={linkClass}>
        Open {customer.name ?? customer.email}&apos;s page
      </Link>
    </p>
  );
}

export function QuoteConversionResult({
  existed,
  when,
  customer,
}: {
  existed: boolean;
  when: string;
  customer: ConvertedCustomer | null;
}) {
  return (
    <section aria-labelledby="create-customer-heading" className={sectionClass}>
      <h3 id="create-customer-heading" className={headingClass}>
        Customer
      </h3>
      {customer ? (
        <>
          <p className="mt-2 text-slate-800 dark:text-slate-100">
            {existed
              ? `An account with ${customer.email} already existed: on ${when} this request's plan was added to it.`
              : `On ${when} this request became ${customer.name ?? customer.email}'s account and plan; a "Set your password" e-mail went to ${customer.email}.`}
          </p>
          <CustomerPageLink customer={customer} />
        </>
      ) : (
        <p className="mt-2 text-slate-800 dark:text-slate-100">
          On {when} this request became a customer, whose account has since been deleted.
        </p>
      )}
    </section>
  );
}

/**
 * Where the status select stands on a request that became a customer (decision 099): its
 * status, fixed, and the way to the customer.
 */
export function ConvertedQuoteStatus({
  statusLabel,
  note,
  customer,
}: {
  statusLabel: string;
  note: string;
  customer: ConvertedCustomer | null;
}) {
  return (
    <section aria-labelledby="quote-status-heading" className={`${sectionClass} max-w-md`}>
      <h3 id="quote-status-heading" className={headingClass}>
        Status
      </h3>
      <p className="mt-2 text-slate-800 dark:text-slate-100">
        <strong>{statusLabel}</strong>. {note}
      </p>
      {customer ? <CustomerPageLink customer={customer} /> : null}
    </section>
  );
}
