import type { ReactNode } from "react";
import { YARD_SIZES } from "../../../db/enums";
import { MAX_DOGS, STEP_TITLES, YARD_SIZE_LABELS, type SignUpStep } from "./sign-up-schema";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "~/components/forms";
import { RichText } from "~/components/portable-text";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";
import type { PortableTextBody } from "~/content/types";
import type { SiteFacts } from "~/content/site-facts";
import { formatCents } from "~/features/billing/money";
import { QuoteHoneypot } from "~/features/quotes/quote-honeypot";

/**
 * The forms of /start (docs/decisions/129): each step a plain form that posts to the server and
 * works without JavaScript; the messages come back from the action in the same shape.
 */

export type StepErrors = { formErrors?: string[]; fieldErrors?: Record<string, string[] | null> } | null;
const errorsOf = (errors: StepErrors, name: string) => errors?.fieldErrors?.[name] ?? undefined;

function StepForm({
  step,
  errors,
  submit,
  children,
}: {
  step: SignUpStep | "waitlist";
  errors: StepErrors;
  submit: string;
  children: ReactNode;
}) {
  const action = step === "zip" ? "/start" : `/start?step=${step}`;
  return (
    <form method="post" action={action} className="grid gap-5" noValidate>
      <QuoteHoneypot />
      {errors?.formErrors?.length ? (
        <p role="alert" className="rounded-lg border border-red-700 p-3 text-red-800 dark:text-red-200">
          {errors.formErrors.join(" ")}
        </p>
      ) : null}
      {children}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButtonClass}>
          {submit}
        </button>
      </div>
    </form>
  );
}

export function StepHeading({ step, progress }: { step: SignUpStep; progress: { step: number; of: number } | null }) {
  return (
    <h1 id="page-heading" tabIndex={-1} className="text-3xl font-bold text-slate-900 dark:text-white">
      {STEP_TITLES[step]}
      {progress ? (
        <span className="mt-1 block text-base font-normal ink-soft">
          Step {progress.step} of {progress.of}
        </span>
      ) : null}
    </h1>
  );
}

export function BackLink({ to }: { to: string }) {
  return (
    <p>
      <a href={to} className="underline">
        Back
      </a>
    </p>
  );
}

export function ZipStep({ zip, errors }: { zip: string; errors: StepErrors }) {
  return (
    <StepForm step="zip" errors={errors} submit="Continue">
      <Field
        label="ZIP code of the yard"
        errors={errorsOf(errors, "zip")}
        inputProps={{
          name: "zip",
          defaultValue: zip,
          inputMode: "numeric",
          autoComplete: "postal-code",
          pattern: "[0-9]{5}",
          maxLength: 5,
          required: true,
        }}
      />
    </StepForm>
  );
}

export function WaitlistStep({ zip, errors }: { zip: string; errors: StepErrors }) {
  return (
    <>
      <p>We do not serve ZIP code {zip} yet. Leave your e-mail address and we will write to you when we do.</p>
      <StepForm step="waitlist" errors={errors} submit="Join the waitlist">
        <Field
          label="E-mail"
          errors={errorsOf(errors, "email")}
          inputProps={{ name: "email", type: "email", autoComplete: "email", required: true, maxLength: 320 }}
        />
        <Field
          label="ZIP code"
          errors={errorsOf(errors, "zip")}
          inputProps={{ name: "zip", defaultValue: zip, inputMode: "numeric", maxLength: 5, required: true }}
        />
      </StepForm>
    </>
  );
}

export type YardView = {
  answers: {
    dogCount: number | null;
    yardSize: string | null;
    lastCleaned: string | null;
    street: string;
    city: string;
    hazards: string;
    hasGateCode: boolean;
  };
  cleans: { answer: string; label: string; cents: number }[];
};

export function YardStep({ view, errors }: { view: YardView; errors: StepErrors }) {
  const { answers } = view;
  return (
    <StepForm step="yard" errors={errors} submit="See plans and prices">
      <Field
        label="Street address"
        errors={errorsOf(errors, "street")}
        inputProps={{
          name: "street",
          defaultValue: answers.street,
          autoComplete: "address-line1",
          required: true,
          maxLength: 200,
        }}
      />
      <Field
        label="City (optional)"
        errors={errorsOf(errors, "city")}
        inputProps={{ name: "city", defaultValue: answers.city, autoComplete: "address-level2", maxLength: 100 }}
      />
      <SelectField
        label="Dogs"
        errors={errorsOf(errors, "dogCount")}
        selectProps={{ name: "dogCount", defaultValue: String(answers.dogCount ?? 1), required: true }}
      >
        {Array.from({ length: MAX_DOGS }, (_, i) => i + 1).map((count) => (
          <option key={count} value={count}>
            {count}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Yard size"
        errors={errorsOf(errors, "yardSize")}
        selectProps={{ name: "yardSize", defaultValue: answers.yardSize ?? "medium", required: true }}
      >
        {YARD_SIZES.map((size) => (
          <option key={size} value={size}>
            {YARD_SIZE_LABELS[size]}
          </option>
        ))}
      </SelectField>
      <fieldset className="grid gap-1">
        <legend className="font-semibold text-slate-900 dark:text-white">When was the yard last cleaned?</legend>
        {view.cleans.map((clean, index) => (
          <CheckboxField
            key={clean.answer}
            label={`${clean.label}: initial clean ${clean.cents === 0 ? "free" : formatCents(clean.cents)}`}
            inputProps={{
              type: "radio",
              name: "lastCleaned",
              value: clean.answer,
              id: `last-cleaned-${clean.answer}`,
              defaultChecked: answers.lastCleaned ? answers.lastCleaned === clean.answer : index === 0,
            }}
          />
        ))}
        <ErrorList id="last-cleaned-error" errors={errorsOf(errors, "lastCleaned")} />
      </fieldset>
      <Field
        label="Gate code (optional)"
        description={
          answers.hasGateCode ? "We have your gate code; leave this empty to keep it." : "Only our technicians see it."
        }
        errors={errorsOf(errors, "gateCode")}
        inputProps={{ name: "gateCode", autoComplete: "off", maxLength: 40 }}
      />
      <TextareaField
        label="Hazards in the yard (optional)"
        description="Broken sprinklers, holes, an aggressive dog, chemical treatments..."
        errors={errorsOf(errors, "hazards")}
        textareaProps={{ name: "hazards", defaultValue: answers.hazards, maxLength: 1000, rows: 3 }}
      />
    </StepForm>
  );
}

export type PlanView = {
  dogCount: number;
  chosen: string | null;
  offers: { id: string; name: string; visitsPerWeek: number; monthlyCents: number; description: string | null }[];
};

export function PlanStep({ view, errors }: { view: PlanView; errors: StepErrors }) {
  return (
    <StepForm step="plan" errors={errors} submit="Choose service days">
      <fieldset className="grid gap-3">
        <legend className="font-semibold text-slate-900 dark:text-white">
          Plans for {view.dogCount} dog{view.dogCount === 1 ? "" : "s"}
        </legend>
        {view.offers.map((offer, index) => (
          <div key={offer.id} className="rounded-xl border border-slate-300 p-3 dark:border-slate-600">
            <CheckboxField
              label={`${offer.name}: ${formatCents(offer.monthlyCents)} a month`}
              description={offer.description ?? undefined}
              inputProps={{
                type: "radio",
                name: "cataloguePlanId",
                value: offer.id,
                id: `plan-${index}`,
                defaultChecked: view.chosen ? view.chosen === offer.id : index === 0,
              }}
            />
          </div>
        ))}
        <ErrorList id="plan-error" errors={errorsOf(errors, "cataloguePlanId")} />
      </fieldset>
    </StepForm>
  );
}

export type DaysView = {
  areaName: string;
  planName: string;
  needed: number;
  chosen: number[];
  days: { day: number; name: string; first: string | null }[];
};

export function DaysStep({ view, errors }: { view: DaysView; errors: StepErrors }) {
  return (
    <StepForm step="days" errors={errors} submit="See the summary">
      <fieldset className="grid gap-1">
        <legend className="font-semibold text-slate-900 dark:text-white">
          {view.planName}: pick {view.needed} day{view.needed === 1 ? "" : "s"} ({view.areaName})
        </legend>
        {view.days.map((day) => (
          <CheckboxField
            key={day.day}
            label={`${day.name}${day.first ? ` (first visit ${day.first})` : " (full for two weeks)"}`}
            inputProps={{
              name: "weekdays",
              value: String(day.day),
              id: `weekday-${day.day}`,
              defaultChecked: view.chosen.includes(day.day),
              disabled: !day.first,
            }}
          />
        ))}
        <ErrorList id="weekdays-error" errors={errorsOf(errors, "weekdays")} />
      </fieldset>
    </StepForm>
  );
}

export type SummaryView = {
  planName: string;
  days: string;
  firstVisit: string;
  monthlyCents: number;
  initialCleanCents: number;
  initialCleanLabel: string;
  firstMonthCents: number;
  firstMonthVisits: number;
  firstMonthOf: number;
  prorated: boolean;
  todayCents: number;
};

export function SummaryStep({
  summary,
  terms,
  facts,
}: {
  summary: SummaryView;
  terms: PortableTextBody;
  facts: SiteFacts;
}) {
  return (
    <div className="grid gap-5">
      <dl className="grid gap-2 rounded-xl border border-slate-300 p-4 dark:border-slate-600" data-testid="summary">
        <div>
          <dt className="font-semibold">Plan</dt>
          <dd>
            {summary.planName}, every {summary.days}
          </dd>
        </div>
        <div>
          <dt className="font-semibold">First visit</dt>
          <dd>{summary.firstVisit}</dd>
        </div>
        <div>
          <dt className="font-semibold">Initial clean ({summary.initialCleanLabel.toLowerCase()})</dt>
          <dd>{formatCents(summary.initialCleanCents)}</dd>
        </div>
        <div>
          <dt className="font-semibold">First month</dt>
          <dd>
            {formatCents(summary.firstMonthCents)}
            {summary.prorated ? ` (${summary.firstMonthVisits} of ${summary.firstMonthOf} visits this month)` : ""}
          </dd>
        </div>
        <div>
          <dt className="font-semibold">Today&rsquo;s charge</dt>
          <dd data-testid="today-charge">{formatCents(summary.todayCents)}</dd>
        </div>
        <div>
          <dt className="font-semibold">Then each month</dt>
          <dd data-testid="monthly-price">{formatCents(summary.monthlyCents)}</dd>
        </div>
      </dl>
      <p>
        <a href="/terms-of-service" className="font-semibold underline">
          Skip or cancel anytime
        </a>{" "}
        from Your Plan in your account.
      </p>
      {terms.length > 0 ? (
        <section aria-labelledby="terms-heading" className="grid gap-2 text-sm">
          <h2 id="terms-heading" className="text-lg font-semibold">
            From our Terms of Service
          </h2>
          <RichText value={terms} facts={facts} />
          <p>
            <a href="/terms-of-service" className="underline">
              Read the whole Terms of Service
            </a>
          </p>
        </section>
      ) : null}
      <form method="post" action="/start?step=summary">
        <button type="submit" className={primaryButtonClass}>
          Continue to your account
        </button>
      </form>
    </div>
  );
}

export function AccountStep({
  businessName,
  signedIn,
  staffSignedIn,
  errors,
  signInHint,
}: {
  businessName: string;
  signedIn: { name: string | null; email: string } | null;
  staffSignedIn: boolean;
  errors: StepErrors;
  signInHint: boolean;
}) {
  return (
    <>
      {signInHint || (!signedIn && !staffSignedIn) ? (
        <p>
          Have an account?{" "}
          <a href="/auth?redirectTo=%2Fstart%3Fstep%3Daccount" className="font-semibold underline">
            Sign in and continue
          </a>{" "}
          (your answers are kept).
        </p>
      ) : null}
      <StepForm step="account" errors={errors} submit="Start my plan">
        {signedIn ? (
          <p>
            Signed in as {signedIn.name ?? signedIn.email} ({signedIn.email}).
          </p>
        ) : (
          <>
            <Field
              label="Full name"
              errors={errorsOf(errors, "fullName")}
              inputProps={{ name: "fullName", autoComplete: "name", required: true, maxLength: 200 }}
            />
            <Field
              label="Email"
              errors={errorsOf(errors, "email")}
              inputProps={{ name: "email", type: "email", autoComplete: "email", required: true, maxLength: 320 }}
            />
            <Field
              label="Password"
              description="At least 6 characters."
              errors={errorsOf(errors, "password")}
              inputProps={{ name: "password", type: "password", autoComplete: "new-password", required: true }}
            />
          </>
        )}
        <fieldset className="grid gap-2">
          <legend className="font-semibold text-slate-900 dark:text-white">Texts about your visits</legend>
          <Field
            label="Mobile number (optional)"
            description="A US mobile number, like 702-555-0123."
            errors={errorsOf(errors, "mobilePhone")}
            inputProps={{ name: "mobilePhone", type: "tel", autoComplete: "tel", maxLength: 25 }}
          />
          <CheckboxField
            label="Text me about my visits"
            description={`By checking this box you agree to receive automated text messages from ${businessName} at the mobile number above when your technician is on the way. About one message per visit. Consent is not a condition of service. Message and data rates may apply. Reply STOP to opt out, HELP for help.`}
            inputProps={{ name: "textVisits", id: "text-visits" }}
          />
        </fieldset>
        <div className="rounded-xl border border-slate-300 p-3 dark:border-slate-600">
          <p className="font-semibold">Pay at your first visit</p>
          <p className="text-sm">Today&rsquo;s invoice is recorded now and paid when we come for the first visit.</p>
        </div>
        <CheckboxField
          label={
            <>
              I accept the{" "}
              <a href="/terms-of-service" className="underline">
                Terms of Service
              </a>
            </>
          }
          errors={errorsOf(errors, "agree")}
          inputProps={{ name: "agree", id: "agree", required: true }}
        />
      </StepForm>
    </>
  );
}

export function StartOver() {
  return (
    <p>
      <a href="/start" className={secondaryButtonClass}>
        Start again
      </a>
    </p>
  );
}
