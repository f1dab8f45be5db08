import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import {
  AccountStep,
  BackLink,
  DaysStep,
  PlanStep,
  StartOver,
  StepHeading,
  SummaryStep,
  WaitlistStep,
  YardStep,
  ZipStep,
} from "~/features/sign-up/sign-up-forms";
import { SIGN_UP_STEPS, type SignUpStep } from "~/features/sign-up/sign-up-schema";
import { handleStartPost, loadStartPage } from "~/features/sign-up/sign-up-steps.server";
import { STATIC_PAGE } from "~/utils/static-page";

// Start online (issue 37 item 1, docs/decisions/129): server-rendered steps, each a plain form,
// so no React runs in the browser (decision 066) and it all works with JavaScript off.
export const handle = STATIC_PAGE;

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadStartPage(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleStartPost(request, context);
}

const backOf = (step: SignUpStep) => {
  const index = SIGN_UP_STEPS.indexOf(step);
  if (index <= 0) return null;
  const previous = SIGN_UP_STEPS[index - 1];
  return previous === "zip" ? "/start" : `/start?step=${previous}`;
};

export default function Start() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refusal = actionData && "refusal" in actionData ? actionData.refusal : null;
  const errors = refusal && refusal.page === data.page ? refusal : null;
  const step = (SIGN_UP_STEPS as readonly string[]).includes(data.page) ? (data.page as SignUpStep) : null;
  const back = step ? backOf(step) : null;
  return (
    <section aria-labelledby="page-heading" className="mx-auto grid max-w-xl gap-6 px-4 py-10">
      {step ? (
        <StepHeading step={step} progress={data.progress} />
      ) : (
        <h1 id="page-heading" tabIndex={-1} className="text-3xl font-bold text-slate-900 dark:text-white">
          {data.page === "closed"
            ? "Start online"
            : data.page === "waitlisted"
              ? "You are on the list"
              : "Not in our area yet"}
        </h1>
      )}
      {data.page === "closed" ? (
        <p>
          Online sign-up is not open yet.{" "}
          <a href="/contact" className="underline">
            Ask for a quote
          </a>{" "}
          and we will set you up.
        </p>
      ) : null}
      {data.page === "zip" ? <ZipStep zip={data.zip} errors={errors} /> : null}
      {data.page === "waitlist" ? <WaitlistStep zip={data.zip} errors={errors} /> : null}
      {data.page === "waitlisted" ? (
        <>
          <p>Thank you: we will e-mail you when we start serving ZIP code {data.zip}.</p>
          <StartOver />
        </>
      ) : null}
      {data.page === "yard" ? <YardStep view={data} errors={errors} /> : null}
      {data.page === "plan" ? <PlanStep view={data} errors={errors} /> : null}
      {data.page === "days" ? <DaysStep view={data} errors={errors} /> : null}
      {data.page === "summary" ? <SummaryStep summary={data.summary} terms={data.terms} facts={data.facts} /> : null}
      {data.page === "account" ? (
        <AccountStep
          businessName={data.businessName}
          signedIn={data.signedIn}
          staffSignedIn={data.staffSignedIn}
          errors={errors}
          signInHint={Boolean(refusal?.signIn)}
        />
      ) : null}
      {back ? <BackLink to={back} /> : null}
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: "Start online" },
  {
    name: "description",
    content: "Sign up for yard service online: your price, your service days and your first visit.",
  },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
