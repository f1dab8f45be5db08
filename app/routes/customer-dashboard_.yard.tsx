import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireUser } from "~/features/accounts/auth.server";
import { TextAgainPanel } from "~/features/notices/text-again-form";
import { handleTextAgainPost, textOptOutView } from "~/features/notices/text-again.server";
import { YardDetails } from "~/features/yards/yard-details";
import { YardForm } from "~/features/yards/yard-form";
import { saveYardFromForm } from "~/features/yards/yard-profile.server";
import { yardView } from "~/features/yards/yard-view.server";
import { getYardProfile } from "~/models/yard-profile.server";
import { getSiteSettings } from "~/content/content.server";
import { redirectWithSuccess } from "~/utils/toast.server";

// "Your Yard": the signed-in customer's own profile; nothing here takes an id from the URL.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const [yard, settings] = await Promise.all([getYardProfile(user.id), getSiteSettings()]);
  return json(
    { yard: yardView(yard), businessName: settings.businessName, textOptOut: await textOptOutView(yard) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  // "Text me again" posts here too, told apart by its query (its form carries nothing else).
  if (new URL(request.url).searchParams.get("intent") === "text-again") return handleTextAgainPost(user.id);
  const result = await saveYardFromForm(request, user.id, user.id);
  if (!result.ok) return json({ lastResult: result.lastResult }, { status: result.status });
  return redirectWithSuccess("/customer-dashboard/yard", { message: "Success", description: "Yard profile saved" });
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function YourYard() {
  const { yard, businessName, textOptOut } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Link
        to="/customer-dashboard"
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        <span aria-hidden="true">←&nbsp;</span>Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">Your Yard</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-200">
        What our team needs to know before walking into your yard. Only you and our staff can see your gate code.
      </p>
      {textOptOut ? <TextAgainPanel optOut={textOptOut} businessName={businessName} /> : null}
      {yard ? (
        <section aria-labelledby="saved-heading" className="mt-6">
          <h2 id="saved-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
            On file
          </h2>
          <YardDetails yard={yard} />
        </section>
      ) : null}
      <section aria-labelledby="edit-heading" className="mt-8">
        <h2 id="edit-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
          {yard ? "Update your yard" : "Tell us about your yard"}
        </h2>
        <YardForm yard={yard} lastResult={actionData?.lastResult} texts={{ businessName }} />
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Your Yard" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
