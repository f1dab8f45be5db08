import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { tapLinkClass } from "~/components/ui-classes";
import { requireUser } from "~/features/accounts/auth.server";
import { CancelPlan } from "~/features/plans/cancel-plan";
import { PauseServiceForm } from "~/features/plans/pause-service-form";
import { handleYourPlanAction, loadYourPlan } from "~/features/plans/your-plan.server";
import { NoPlan, PlanOverview, ResumeService, UpcomingVisits } from "~/features/plans/your-plan-sections";
import { privatePageMeta } from "~/utils/seo";

// "Your Plan": the signed-in customer's own plan; nothing here takes a plan or visit id from the
// URL, and the workflow answers 404 for a posted id that is not theirs.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return json(await loadYourPlan(user, new URL(request.url), new Date()), {
    headers: { "Cache-Control": "private, no-store" },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleYourPlanAction(request, user, new Date());
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function YourPlan() {
  const { plan, visits, contact, notice, pause, cancelCredit, confirmCancel } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <ActionToast toast={actionData?.toast} />
      <Link to="/customer-dashboard" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>Dashboard
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">Your Plan</h1>
      {plan ? (
        <>
          <PlanOverview plan={plan} contact={contact} />
          <UpcomingVisits visits={visits} notice={notice} contact={contact} actionData={actionData} busy={busy} />
          <ResumeService plan={plan} busy={busy} />
          {plan.canPause ? (
            <PauseServiceForm planId={plan.id} limits={pause} actionData={actionData} busy={busy} />
          ) : null}
          {plan.canCancel ? (
            <CancelPlan planId={plan.id} confirm={confirmCancel} notice={notice} credit={cancelCredit} busy={busy} />
          ) : null}
        </>
      ) : (
        <NoPlan contact={contact} />
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Your Plan", "Your plan, your next visits, and skipping, pausing or cancelling.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
