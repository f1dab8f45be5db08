import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { QUOTE_STATUSES, STATUS_FIXED_MESSAGE } from "~/features/quotes/quote-constants";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { SelectField } from "~/components/forms";
import { outlineButtonClass, primaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { OutsideAreaBadge, QuoteStatusBadge } from "~/features/quotes/quote-status-badge";
import { getQuoteServiceOptions } from "~/content/content.server";
import { getQuoteRequest } from "~/models/quote-request.server";
import { changeQuoteStatus } from "~/features/quotes/quote-status.server";
import { getQuoteEmailStatuses, type QuoteEmailStatus } from "~/features/quotes/quote-notifications.server";
import { requireStaff } from "~/features/staff/staff-access.server";
import { formatQuoteTime, QUOTE_STATUS_LABELS } from "~/features/quotes/quote-format";
import { telHref } from "~/utils/tel";
import { dogCountLabel, yardSizeLabel } from "~/features/quotes/quote-schema";
import { redirectWithSuccess } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { ActionToast, type ActionToastMessage } from "~/components/action-toast";
import { CREATE_CUSTOMER_INTENT } from "~/features/quotes/quote-to-customer-schema";
import {
  ConvertedQuoteStatus,
  CreateCustomerForm,
  QuoteConversionResult,
} from "~/features/quotes/quote-to-customer-form";
import { handleCreateCustomer, loadQuoteConversion } from "~/features/quotes/quote-to-customer.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "quotes");
  const quote = await getQuoteRequest(params.quoteId ?? "");
  if (!quote) throw new Response("Quote request not found", { status: 404 });
  const [options, emails, conversion] = await Promise.all([
    getQuoteServiceOptions(),
    getQuoteEmailStatuses(quote.id),
    loadQuoteConversion(quote),
  ]);
  return json(
    {
      quote: {
        id: quote.id,
        name: quote.name,
        phone: quote.phone,
        email: quote.email,
        address: quote.address,
        zip: quote.zip,
        dogs: dogCountLabel(quote.dogs),
        yardSize: yardSizeLabel(quote.yard_size),
        service: options.find((option) => option.value === quote.service)?.label ?? quote.service,
        message: quote.message,
        status: quote.status,
        outsideServiceArea: quote.outside_service_area,
        estimateLabel: quote.estimate_label,
        // Read from the outbox rows about this request (docs/decisions/034).
        emails,
        createdAt: quote.created_at.toISOString(),
        received: formatQuoteTime(quote.created_at),
      },
      // "Create customer and plan" (decision 096): the pre-filled form, or what the request became
      // (its status then fixed, decision 099).
      conversion,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const STATUS_MESSAGE = `Choose one of: ${QUOTE_STATUSES.map((status) => QUOTE_STATUS_LABELS[status]).join(", ")}.`;
const statusSchema = z.object({
  status: z.enum(QUOTE_STATUSES, { errorMap: () => ({ message: STATUS_MESSAGE }) }),
});

// The status form's refusals: Conform's reply, and a toast when nothing could be stored.
type StatusActionData = { lastResult: SubmissionResult<string[]>; toast?: ActionToastMessage };

// The page's two forms, told apart by `intent`: "Create customer and plan", and the status (none).
export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireStaff(request, context, "quotes");
  const quoteId = params.quoteId ?? "";
  const formData = await readFormData(request);
  if (!(await getQuoteRequest(quoteId))) throw new Response("Quote request not found", { status: 404 });
  if (formData.get("intent") === CREATE_CUSTOMER_INTENT) {
    return handleCreateCustomer(formData, { quoteId, admin: { id: admin.id, name: admin.fullName ?? admin.email } });
  }
  const submission = parseWithZod(formData, { schema: statusSchema });
  if (submission.status !== "success") {
    return json<StatusActionData>({ lastResult: submission.reply() }, { status: 400 });
  }

  const change = await changeQuoteStatus(quoteId, submission.value.status);
  if (!change.ok && change.reason === "missing") throw new Response("Quote request not found", { status: 404 });
  if (!change.ok) {
    // Converted (decision 099): nothing stored; the page shows the fixed status and says why.
    return json<StatusActionData>(
      {
        lastResult: submission.reply({ formErrors: [STATUS_FIXED_MESSAGE] }),
        toast: { type: "error", message: "Error", description: STATUS_FIXED_MESSAGE },
      },
      { status: 409 },
    );
  }
  const updated = change.quote;
  return redirectWithSuccess(`/admin-dashboard/quotes/${quoteId}`, {
    message: "Status updated",
    description: `${updated.name}'s request is now marked ${QUOTE_STATUS_LABELS[updated.status].toLowerCase()}.`,
  });
}

/** One e-mail's line: its status, when it went, how many tries, and the last error. */
function EmailStatus({ email, none }: { email: QuoteEmailStatus | null; none: string }) {
  if (!email) return <>{none}</>;
  const retrying = email.status === "pending" && email.attempts > 0;
  return (
    <>
      {email.label}
      {email.sentAt ? ` ${email.sentAt}` : ""}
      {retrying ? "; retrying automatically" : ""}
      {email.attempts > 0 ? ` (${email.attempts} attempt${email.attempts === 1 ? "" : "s"})` : ""}
      {email.error ? <span className="block text-sm text-slate-700 dark:text-slate-300">{email.error}</span> : null}
    </>
  );
}

export default function QuoteRequestDetail() {
  const { quote, conversion } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const conversionData = actionData && "intent" in actionData ? actionData : undefined;
  const statusData = actionData && "lastResult" in actionData ? actionData : undefined;
  const [form, fields] = useForm({
    id: `quote-status-${quote.id}`,
    lastResult: navigation.state === "idle" ? statusData?.lastResult : undefined,
    defaultValue: { status: quote.status },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: statusSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const mailto = `mailto:${quote.email}?subject=${encodeURIComponent("Your quote request")}`;

  return (
    <article aria-labelledby="quote-heading">
      <Link to="/admin-dashboard/quotes" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>All quote requests
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h2 id="quote-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
          Quote request from {quote.name}
        </h2>
        <QuoteStatusBadge status={quote.status} />
        {quote.outsideServiceArea ? <OutsideAreaBadge /> : null}
      </div>
      <p className="mt-1 text-slate-700 dark:text-slate-200">
        Received <time dateTime={quote.createdAt}>{quote.received}</time>
      </p>

      <div className="mt-6 flex flex-wrap gap-3">
        <a href={telHref(quote.phone)} className={primaryButtonClass}>
          Call {quote.phone}
        </a>
        <a href={mailto} className={outlineButtonClass}>
          E-mail {quote.email}
        </a>
      </div>

      <dl className="mt-8 grid gap-x-8 gap-y-4 sm:grid-cols-2">
        <Detail term="Name">{quote.name}</Detail>
        <Detail term="Phone">
          <a href={telHref(quote.phone)} className="underline underline-offset-4">
            {quote.phone}
          </a>
        </Detail>
        <Detail term="E-mail">
          <a href={mailto} className="break-all underline underline-offset-4">
            {quote.email}
          </a>
        </Detail>
        <Detail term="Address">{quote.address}</Detail>
        <Detail term="ZIP code">
          {quote.zip}
          {quote.outsideServiceArea ? " (not in the served ZIP codes: confirm before quoting)" : ""}
        </Detail>
        <Detail term="Dogs">{quote.dogs}</Detail>
        <Detail term="Yard size">{quote.yardSize}</Detail>
        <Detail term="Service">{quote.service}</Detail>
        <Detail term="Estimate shown to the visitor">{quote.estimateLabel ?? "None (custom quote)"}</Detail>
        <Detail term="E-mail notification">
          <EmailStatus email={quote.emails.owner} none="None on record" />
        </Detail>
        <Detail term="Confirmation to the visitor">
          <EmailStatus
            email={quote.emails.visitor}
            none="Not sent: this address had a confirmation in the previous 24 hours"
          />
        </Detail>
        <div className="sm:col-span-2">
          <dt className="font-semibold text-slate-900 dark:text-white">Message</dt>
          <dd className="mt-1 whitespace-pre-wrap text-slate-800 dark:text-slate-100">{quote.message ?? "(none)"}</dd>
        </div>
      </dl>

      {conversion.state === "converted" ? (
        <ConvertedQuoteStatus
          statusLabel={QUOTE_STATUS_LABELS[quote.status]}
          note={STATUS_FIXED_MESSAGE}
          customer={conversion.customer}
        />
      ) : (
        <Form
          method="post"
          {...getFormProps(form)}
          className="mt-10 max-w-md rounded-xl border border-slate-300 p-5 dark:border-slate-600"
        >
          {/* Remounts with the new default after a status change. */}
          <SelectField
            key={quote.status}
            field={fields.status}
            label="Status"
            selectProps={{ defaultValue: quote.status }}
          >
            {QUOTE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {QUOTE_STATUS_LABELS[status]}
              </option>
            ))}
          </SelectField>
          <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-3`}>
            {busy ? "Updating..." : "Update status"}
          </button>
        </Form>
      )}

      {conversion.state === "open" ? (
        <CreateCustomerForm
          catalogue={conversion.catalogue}
          defaults={conversion.defaults}
          lastResult={navigation.state === "idle" ? conversionData?.result : undefined}
          busy={busy}
        />
      ) : (
        <QuoteConversionResult existed={conversion.existed} when={conversion.when} customer={conversion.customer} />
      )}
      {conversionData ? <ActionToast toast={conversionData.toast} /> : null}
      {statusData?.toast ? <ActionToast toast={statusData.toast} /> : null}
    </article>
  );
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="font-semibold text-slate-900 dark:text-white">{term}</dt>
      <dd className="mt-1 text-slate-800 dark:text-slate-100">{children}</dd>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Quote request from ${data.quote.name} | Admin Dashboard` : "Quote request | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
