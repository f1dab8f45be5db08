import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useNavigation, useSearchParams } from "@remix-run/react";
import { useRef } from "react";
import type { AdminPlanActionData, loadAdminPlan } from "./admin-plan-page.server";
import { ChangePlanForm, PausePlanForm, StartPlanForm } from "./admin-plan-forms";
import { ActionToast } from "~/components/action-toast";
import { ErrorList } from "~/components/forms";
import { primaryButtonClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { CancelReasonFields } from "./cancel-reason-fields";

/**
 * The Plan section of the admin's customer page (issue 25 item 5), `#plan`: the customer's plan
 * (or the last one, cancelled), its next visits and its history, with "Start plan", "Change
 * plan", "Pause", "Resume" and "Cancel plan". Every form posts to the page's action with its
 * `intent` and works without JavaScript; "Cancel plan" asks first, on the page (`?confirm=
 * cancel-plan`) without JavaScript, in a dialog with it.
 */
export type AdminPlanSectionData = SerializeFrom<typeof loadAdminPlan>;

const h3Class = "text-xl font-semibold text-slate-900 dark:text-white";
const h4Class = "text-lg font-semibold text-slate-900 dark:text-white";
const panelClass = "mt-4 rounded-xl border border-slate-300 p-5 dark:border-slate-600";
export const CONFIRM_CANCEL = "cancel-plan";
/** `?form=change-plan` or `?form=pause-plan`: the page with that form open. */
export const FORM_PARAM = "form";

export function AdminPlanSection({
  section,
  customerId,
  yardDogCount,
  actionData,
}: {
  section: AdminPlanSectionData;
  customerId: string;
  yardDogCount: number | null;
  actionData: AdminPlanActionData | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  // The last answer belongs to one form only; Conform's reply is dropped once a new post starts.
  const resultFor = (intent: AdminPlanActionData["intent"]) =>
    navigation.state === "idle" && actionData?.intent === intent ? actionData.result : undefined;
  const { plan, catalogue, defaults, upcoming, history } = section;
  const open = plan?.open ? plan : null;
  const path = `/admin-dashboard/customers/${customerId}`;
  const [searchParams] = useSearchParams();
  const asked = searchParams.get(FORM_PARAM);
  const shownForm =
    actionData?.intent === "change-plan" || actionData?.intent === "pause-plan"
      ? actionData.intent
      : asked === "change-plan" || asked === "pause-plan"
        ? asked
        : null;

  return (
    <section id="plan" aria-labelledby="plan-heading" className="mt-8 scroll-mt-4">
      <ActionToast toast={actionData?.toast} />
      <h3 id="plan-heading" className={h3Class}>
        Plan
      </h3>
      {plan ? <PlanSummary plan={plan} /> : <p className="mt-2">No plan yet.</p>}

      {open ? (
        <>
          <PlanButtons
            plan={open}
            path={path}
            busy={busy}
            errors={
              actionData && (actionData.intent === "resume-plan" || actionData.intent === "cancel-plan")
                ? (actionData.result?.error?.[""] ?? undefined)
                : undefined
            }
          />
          {/* The forms render when asked for (a link, so without JavaScript too), or when
              their last post was refused: every view of the page does not pay for them. */}
          {shownForm === "change-plan" ? (
            <div className={panelClass}>
              <h4 className={h4Class}>Change plan</h4>
              <ChangePlanForm
                planId={open.id}
                catalogue={catalogue}
                defaults={{
                  cataloguePlanId: open.cataloguePlanId,
                  weekdays: open.weekdays,
                  dogCount: open.dogs,
                  yardSize: open.yardSize,
                  notes: open.notes ?? "",
                  fromDate: defaults.startDate,
                }}
                lastResult={resultFor("change-plan")}
                busy={busy}
              />
            </div>
          ) : shownForm === "pause-plan" ? (
            <div className={panelClass}>
              <h4 className={h4Class}>Pause</h4>
              <PausePlanForm
                planId={open.id}
                defaults={{ from: defaults.startDate }}
                longestPauseDays={section.longestPauseDays}
                lastResult={resultFor("pause-plan")}
                busy={busy}
              />
            </div>
          ) : null}
          <UpcomingVisits visits={upcoming} />
        </>
      ) : (
        <div className={panelClass}>
          <h4 className={h4Class}>Start plan</h4>
          <StartPlanForm
            catalogue={catalogue}
            defaults={{
              cataloguePlanId: "",
              weekdays: [],
              dogCount: Math.max(1, yardDogCount ?? plan?.dogs ?? 1),
              yardSize: plan?.yardSize ?? "",
              notes: "",
              startDate: defaults.startDate,
            }}
            lastResult={resultFor("start-plan")}
            busy={busy}
          />
        </div>
      )}

      {plan ? <PlanHistory history={history} /> : null}
    </section>
  );
}

type PlanView = NonNullable<AdminPlanSectionData["plan"]>;

function PlanSummary({ plan }: { plan: PlanView }) {
  const rows: [string, string | null][] = [
    ["Plan", plan.name],
    ["Service days", plan.days],
    ["Dogs", String(plan.dogs)],
    ["Yard size", plan.yardSizeLabel],
    [
      "Monthly price",
      plan.price ? `${plan.price}${plan.priceBreakdown ? ` (${plan.priceBreakdown})` : ""}` : "Not in the catalogue",
    ],
    ["New price", plan.newPrice],
    [
      "Catalogue",
      plan.price && plan.notInCatalogue
        ? "No longer in the catalogue: billed at the price stored on the plan. Change the plan to re-price it."
        : null,
    ],
    ["Status", plan.statusLabel],
    ["Last visit", plan.lastVisitLabel],
    ["Started", plan.startLabel],
    ["Notes", plan.notes],
  ];
  return (
    <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
      {rows
        .filter((row): row is [string, string] => Boolean(row[1]))
        .map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-semibold text-slate-900 dark:text-white">{term}</dt>
            <dd className="whitespace-pre-line">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Resume (when paused) and Cancel plan, with its confirmation. */
function PlanButtons({
  plan,
  path,
  busy,
  errors,
}: {
  plan: PlanView;
  path: string;
  busy: boolean;
  errors: string[] | undefined;
}) {
  const [searchParams] = useSearchParams();
  const dialog = useRef<HTMLDialogElement>(null);
  const confirming = searchParams.get("confirm") === CONFIRM_CANCEL;
  return (
    <>
      <div className="mt-4 flex flex-wrap items-start gap-3">
        <Link to={`${path}?${FORM_PARAM}=change-plan#plan`} className={secondaryButtonClass}>
          Change plan
        </Link>
        <Link to={`${path}?${FORM_PARAM}=pause-plan#plan`} className={secondaryButtonClass}>
          Pause
        </Link>
        {plan.paused ? (
          <Form method="post" action={`${path}#plan`}>
            <input type="hidden" name="intent" value="resume-plan" />
            <input type="hidden" name="planId" value={plan.id} />
            <button type="submit" disabled={busy} className={primaryButtonClass}>
              Resume
            </button>
          </Form>
        ) : null}
        {/* Without JavaScript, a page that asks first; with it, the same question in a dialog. */}
        <form
          method="get"
          action={`${path}#plan`}
          onSubmit={(event) => {
            const element = dialog.current;
            if (element && typeof element.showModal === "function") {
              event.preventDefault();
              element.showModal();
            }
          }}
        >
          <input type="hidden" name="confirm" value={CONFIRM_CANCEL} />
          <button type="submit" className={secondaryButtonClass}>
            Cancel plan
          </button>
        </form>
      </div>
      <ErrorList errors={errors} className="mt-2 font-medium text-red-800 dark:text-red-300" />
      {confirming ? (
        <div className={panelClass}>
          <CancelConfirmation
            titleId="cancel-plan-title"
            planId={plan.id}
            credit={plan.cancelCredit}
            path={path}
            busy={busy}
          />
        </div>
      ) : null}
      <dialog
        ref={dialog}
        aria-labelledby="cancel-plan-dialog-title"
        className="w-[min(32rem,calc(100vw-2rem))] rounded-2xl border border-slate-300 bg-white p-6 text-slate-900 shadow-2xl backdrop:bg-slate-950/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        <CancelConfirmation
          titleId="cancel-plan-dialog-title"
          planId={plan.id}
          credit={plan.cancelCredit}
          path={path}
          busy={busy}
          onKeep={() => dialog.current?.close()}
        />
      </dialog>
    </>
  );
}

function CancelConfirmation({
  titleId,
  planId,
  credit,
  path,
  busy,
  onKeep,
}: {
  titleId: string;
  planId: string;
  credit: PlanView["cancelCredit"];
  path: string;
  busy: boolean;
  onKeep?: () => void;
}) {
  return (
    <>
      <h4 id={titleId} className={h4Class}>
        Cancel this plan?
      </h4>
      <p className="mt-2">
        Its visits from now on are cancelled; completed visits and the history stay. The customer and the owner get an
        e-mail.
      </p>
      {/* Computed by the cancellation's own function (decision 115): what its credit note gives. */}
      <p className="mt-2 font-medium" data-testid="cancel-credit">
        {credit?.amount
          ? `${credit.amount} back as credit on file (a credit note${credit.pays ? `; it first pays the ${credit.pays} owed` : ""}). Refund it to the card from a payment if the customer asks.`
          : "Nothing paid for is left to give back."}
      </p>
      {credit?.bills ? (
        <p className="mt-2" data-testid="cancel-final-invoice">
          A final invoice of {credit.bills} bills the plan change not yet billed (made with the cancellation).
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Form method="post" action={`${path}#plan`}>
          <input type="hidden" name="intent" value="cancel-plan" />
          <input type="hidden" name="planId" value={planId} />
          <CancelReasonFields idPrefix={`${titleId}-reason`} question="Why is the customer leaving?" />
          <button type="submit" disabled={busy} className={primaryButtonClass}>
            Yes, cancel the plan
          </button>
        </Form>
        {onKeep ? (
          <button type="button" onClick={onKeep} className={secondaryButtonClass}>
            Keep the plan
          </button>
        ) : (
          <Link to={`${path}#plan`} className={secondaryButtonClass}>
            Keep the plan
          </Link>
        )}
      </div>
    </>
  );
}

function UpcomingVisits({ visits }: { visits: AdminPlanSectionData["upcoming"] }) {
  return (
    <div className="mt-6">
      <h4 className={h4Class}>Upcoming visits</h4>
      {visits.length === 0 ? (
        <p className="mt-2">No upcoming visits.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700" aria-label="Upcoming plan visits">
          {visits.map((visit) => (
            <li key={visit.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <Link to={`/admin-dashboard/visits/${visit.id}`} className={tapLinkClass}>
                <time dateTime={visit.at}>{visit.label}</time>
              </Link>
              <span>{visit.statusLabel}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PlanHistory({ history }: { history: AdminPlanSectionData["history"] }) {
  return (
    <div className="mt-6">
      <h4 id="plan-history-heading" className={h4Class}>
        History
      </h4>
      {history.length === 0 ? (
        <p className="mt-2">No changes yet.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" aria-labelledby="plan-history-heading">
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-600">
                <th scope="col" className="py-2 pr-4">
                  When
                </th>
                <th scope="col" className="py-2 pr-4">
                  Who
                </th>
                <th scope="col" className="py-2 pr-4">
                  What
                </th>
                <th scope="col" className="py-2">
                  Detail
                </th>
              </tr>
            </thead>
            <tbody>
              {history.map((line) => (
                <tr key={line.id} className="border-b border-slate-200 align-top dark:border-slate-700">
                  <td className="py-2 pr-4 whitespace-nowrap">
                    <time dateTime={line.at}>{line.when}</time>
                  </td>
                  <td className="py-2 pr-4">{line.who}</td>
                  <td className="py-2 pr-4">{line.what}</td>
                  <td className="py-2">{line.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
