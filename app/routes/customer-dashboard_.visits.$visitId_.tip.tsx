import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field } from "~/components/forms";
import { checkClass, errorClass, primaryButtonClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { handleTipAction, loadTipPage, type TipActionData } from "~/features/tips/tip-page.server";

// A tip for one of the signed-in customer's visits (decision 131); anyone else's id is a 404.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const page = await loadTipPage(user.id, params.visitId ?? "", new URL(request.url));
  return json(page, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const { status, data } = await handleTipAction(user.id, params.visitId ?? "", await request.formData(), new Date());
  return json(data, { status });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function VisitTip() {
  const { visit, technician, presets, chosen, refusal, tip, payment } = useLoaderData<typeof loader>();
  const result = useActionData<TipActionData>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const who = technician ?? "your technician";
  return (
    <article aria-labelledby="tip-heading" className="mx-auto max-w-xl px-4 py-10">
      <Link
        to={`/customer-dashboard/visits/${visit.id}`}
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        <span aria-hidden="true">←&nbsp;</span>Your visit
      </Link>
      <h1 id="tip-heading" className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">
        Tip {who}
      </h1>
      <p className="mt-2">
        For your {visit.serviceType} visit on {visit.dateLabel}. All of your tip goes to {who}.
      </p>
      <div role="status" aria-live="polite" className="mt-4">
        {result?.message ? <p className="font-semibold">{result.message}</p> : null}
      </div>
      {result?.error && !result.field ? (
        <p role="alert" className={errorClass}>
          {result.error}
        </p>
      ) : null}
      {refusal ? (
        <p className="mt-4">{refusal}</p>
      ) : tip && !tip.retry ? (
        <p className="mt-4 font-semibold">{tip.state}</p>
      ) : tip ? (
        <Form method="post" className="mt-4">
          <p>{tip.state}</p>
          <input type="hidden" name="intent" value="retry" />
          <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-3`}>
            Try again
          </button>
        </Form>
      ) : (
        <Form method="post" className="mt-6" aria-describedby="tip-payment">
          <fieldset aria-describedby={result?.field === "choice" ? "tip-choice-error" : undefined}>
            <legend className="text-xl font-semibold text-slate-900 dark:text-white">Amount</legend>
            <div className="mt-3 flex flex-col gap-2">
              {[...presets, { value: "other", label: "Other" }].map((option) => (
                <label key={option.value} className="inline-flex min-h-11 items-center gap-3">
                  <input
                    type="radio"
                    name="choice"
                    value={option.value}
                    defaultChecked={chosen === option.value}
                    required
                    className={checkClass}
                  />
                  {option.label}
                </label>
              ))}
            </div>
            <ErrorList id="tip-choice-error" errors={result?.field === "choice" ? [result.error] : undefined} />
          </fieldset>
          <Field
            label="Other amount (dollars)"
            className="mt-4"
            description="From $1.00 to $500.00, for example 7 or 7.50. Used when you choose Other."
            inputProps={{ id: "tip-other", name: "other", inputMode: "decimal", autoComplete: "off", maxLength: 12 }}
            errors={result?.field === "other" ? [result.error] : undefined}
          />
          <p id="tip-payment" className="mt-4">
            {payment}
          </p>
          <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
            Leave the tip
          </button>
        </Form>
      )}
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Tip for your ${data.visit.serviceType} visit` : "Tip" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
