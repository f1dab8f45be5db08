import { Form, Link } from "@remix-run/react";
import {
  h2Class,
  mutedClass,
  sectionClass,
  type UpcomingVisit,
  type YourPlanActionData,
  type YourPlanData,
  type YourPlanInfo,
} from "./your-plan-view";
import { ErrorList } from "~/components/forms";
import { linkClass, primaryButtonClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";

type Contact = YourPlanData["contact"];

function Phone({ contact }: { contact: Contact }) {
  return (
    <a href={contact.phoneHref} className={linkClass}>
      {contact.phone}
    </a>
  );
}

/** The plan at a glance: its name, state, days, dogs and monthly price. */
export function PlanOverview({ plan, contact }: { plan: YourPlanInfo; contact: Contact }) {
  const { status } = plan;
  const rows: [string, React.ReactNode][] = [
    [
      "Status",
      status.kind === "cancelled"
        ? "Cancelled"
        : status.kind === "paused"
          ? `Paused from ${status.from} until ${status.until}`
          : "Active",
    ],
  ];
  if (status.kind === "cancelled" && status.lastVisit) rows.push(["Last visit", status.lastVisit]);
  if (plan.startsOn) rows.push(["Starts on", plan.startsOn]);
  rows.push(["Service days", plan.serviceDays], ["Dogs", String(plan.dogs)]);
  rows.push([
    "Monthly price",
    plan.monthlyPrice ? (
      plan.monthlyPrice.spoken === plan.monthlyPrice.shown ? (
        plan.monthlyPrice.shown
      ) : (
        <>
          <span aria-hidden="true">{plan.monthlyPrice.shown}</span>
          <span className="sr-only">{plan.monthlyPrice.spoken}</span>
        </>
      )
    ) : (
      <>
        Ask us: <Phone contact={contact} />
      </>
    ),
  ]);
  if (plan.newPrice) rows.push(["New price", plan.newPrice]);
  return (
    <section aria-labelledby="plan-heading" className={sectionClass}>
      <h2 id="plan-heading" className={h2Class}>
        {plan.name}
      </h2>
      <dl className="mt-4 grid gap-y-3">
        {rows.map(([term, value]) => (
          <div key={term} className="grid gap-x-6 sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold text-slate-900 dark:text-white">{term}</dt>
            <dd className="text-slate-800 dark:text-slate-100">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** "Upcoming visits": the next visits, each with what the customer may still do about it. */
export function UpcomingVisits({
  visits,
  notice,
  contact,
  actionData,
  busy,
}: {
  visits: UpcomingVisit[];
  notice: YourPlanData["notice"];
  contact: Contact;
  actionData: YourPlanActionData | undefined;
  busy: boolean;
}) {
  return (
    <section aria-labelledby="visits-heading" className={sectionClass}>
      <h2 id="visits-heading" className={h2Class}>
        Upcoming visits
      </h2>
      <p className={`mt-1 ${mutedClass}`}>
        You can skip a visit, or undo a skip, up to {notice.hours} hours before it starts.
      </p>
      {visits.length === 0 ? (
        <p className={`mt-4 ${mutedClass}`}>No upcoming visits.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-700">
          {visits.map((visit) => (
            <li key={visit.id} className="flex flex-wrap items-center justify-between gap-3 py-4">
              <div>
                <p className="font-semibold text-slate-900 dark:text-white">
                  <time dateTime={visit.startsAt}>{visit.day}</time>
                </p>
                <p className={`text-sm ${mutedClass}`}>{visit.time}</p>
                {visit.skipReason ? <p className={`text-sm ${mutedClass}`}>{visit.skipReason}</p> : null}
                {visit.locked ? (
                  <p className={`mt-1 text-sm ${mutedClass}`}>
                    Less than {notice.hours} hours away: it can no longer be changed online. Call us at{" "}
                    <Phone contact={contact} />.
                  </p>
                ) : null}
                {actionData?.visitId === visit.id ? (
                  <ErrorList id={`visit-${visit.id}-error`} errors={[actionData.toast.description]} />
                ) : null}
              </div>
              <div className="flex flex-wrap items-center gap-3">
                {/* The badge classes of status-badge.tsx, with the words capitalised in the text itself. */}
                <span className={`badge ${visit.status === "scheduled" ? "badge-blue" : "badge-grey"}`}>
                  {visit.status === "scheduled" ? "Scheduled" : "Skipped"}
                </span>
                {visit.canSkip ? <VisitForm intent="skip" visit={visit} busy={busy} label="Skip this visit" /> : null}
                {visit.canUndo ? <VisitForm intent="undo-skip" visit={visit} busy={busy} label="Undo skip" /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function VisitForm({
  intent,
  visit,
  busy,
  label,
}: {
  intent: "skip" | "undo-skip";
  visit: UpcomingVisit;
  busy: boolean;
  label: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="visitId" value={visit.id} />
      <button type="submit" disabled={busy} className={secondaryButtonClass}>
        {label}
        <span className="sr-only">, {visit.day}</span>
      </button>
    </Form>
  );
}

/** "Resume now": ends a pause in force. */
export function ResumeService({ plan, busy }: { plan: YourPlanInfo; busy: boolean }) {
  if (plan.status.kind !== "paused") return null;
  return (
    <section aria-labelledby="resume-heading" className={sectionClass}>
      <h2 id="resume-heading" className={h2Class}>
        Your service is paused
      </h2>
      <p className={`mt-1 ${mutedClass}`}>
        From {plan.status.from} until {plan.status.until}. Resume now and your visits are scheduled again.
      </p>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="resume" />
        <input type="hidden" name="planId" value={plan.id} />
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Resume now
        </button>
      </Form>
    </section>
  );
}

/** No plan: where to find one. */
export function NoPlan({ contact }: { contact: Contact }) {
  return (
    <section aria-labelledby="no-plan-heading" className={sectionClass}>
      <h2 id="no-plan-heading" className={h2Class}>
        No plan yet
      </h2>
      <p className={`mt-2 ${mutedClass}`}>
        With a plan we come on the same days every week, and you can skip, pause or cancel here.
      </p>
      <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
        <Link to="/services" className={tapLinkClass}>
          See our plans
        </Link>
        <Link to="/contact" className={tapLinkClass}>
          Ask for a quote
        </Link>
      </p>
      <p className={`mt-2 ${mutedClass}`}>
        Or call us at <Phone contact={contact} />.
      </p>
    </section>
  );
}
