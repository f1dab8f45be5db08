import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireUser } from "~/features/accounts/auth.server";
import { FeedbackForm } from "~/features/reviews/feedback-form";
import { feedbackSchema } from "~/features/reviews/feedback-schema";
import { reviewSettings, sendCustomerFeedback } from "~/features/reviews/review-requests.server";
import { getSiteSettings } from "~/content/content.server";
import { getDb } from "~/utils/db.server";
import { readFormData } from "~/utils/form-data.server";
import { redirectWithSuccess } from "~/utils/toast.server";

// "Tell us what to improve" (decision 133): the signed-in customer's private note to the owner;
// who wrote it is the session's, never a field of the form.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const settings = await getSiteSettings();
  return json({ businessName: settings.businessName }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: feedbackSchema });
  if (submission.status !== "success") return json({ lastResult: submission.reply() }, { status: 400 });
  const { context: emailContext } = await reviewSettings();
  const db = await getDb();
  const result = await db
    .transaction()
    .execute((trx) =>
      sendCustomerFeedback(
        trx,
        { id: user.id, email: user.email, name: user.fullName },
        submission.value.message,
        emailContext,
        new Date(),
      ),
    );
  if (!result.ok)
    return json({ lastResult: submission.reply({ formErrors: [result.error] }) }, { status: result.status });
  return redirectWithSuccess("/customer-dashboard", {
    message: "Thank you",
    description: "Your note went to the owner, who reads every one.",
  });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function TellUsWhatToImprove() {
  const { businessName } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link
        to="/customer-dashboard"
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        <span aria-hidden="true">←&nbsp;</span>Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">Tell us what to improve</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-200">
        This note goes privately to the owner of {businessName}. It is not a review and is never published.
      </p>
      {actionData?.lastResult?.error?.[""]?.length ? (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          {actionData.lastResult.error[""][0]}
        </p>
      ) : null}
      <FeedbackForm lastResult={actionData?.lastResult} />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Tell us what to improve" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
