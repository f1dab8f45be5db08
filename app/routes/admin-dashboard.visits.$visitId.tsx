import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { CheckboxField, ErrorList, Field, TextareaField } from "~/components/forms";
import { labelClass, linkClass, primaryButtonClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { VisitStatusBadge } from "~/components/status-badge";
import { requireAdmin } from "~/features/accounts/auth.server";
import { MediaUploadForm } from "~/features/media/media-upload-form";
import { MediaView } from "~/features/media/media-view";
import { mediaUploadAction } from "~/features/media/upload-back";
import { HealthNotesView } from "~/features/visits/health-notes-view";
import {
  HEALTH_FLAG_LABELS,
  HEALTH_FLAGS,
  MISSED_REASON_LABELS,
  MISSED_REASONS,
} from "~/features/visits/visit-constants";
import { handleAdminVisitAction, loadAdminVisit } from "~/features/visits/visit-page.server";
import { visitPath } from "~/features/visits/visit-paths";
import { VISIT_ACTIONS, type VisitAction } from "~/features/visits/visit-transitions";
import { YardDetails } from "~/features/yards/yard-details";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return json(await loadAdminVisit(params.visitId ?? ""), { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  return handleAdminVisitAction(request, params.visitId ?? "", admin.id);
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const panelClass = "rounded-xl border border-slate-300 p-5 dark:border-slate-600";
const h3Class = "text-xl font-semibold text-slate-900 dark:text-white";

export default function AdminVisit() {
  const { visit, customer, yard, media, history, emails } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const errors = (field: string) => actionData?.result?.error?.[field] ?? undefined;
  const can = (action: VisitAction) => (visit.allowed as readonly string[]).includes(action);
  const back = visitPath(visit.id);
  const upload = mediaUploadAction(visit.id, back);

  return (
    <article aria-labelledby="visit-heading">
      <ActionToast toast={actionData?.toast} />
      <Link to="/admin-dashboard/visits" className={tapLinkClass}>
        <span aria-hidden="true">←&nbsp;</span>All visits
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h2 id="visit-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
          {visit.serviceType}, <time dateTime={visit.date}>{visit.dateLabel}</time>
        </h2>
        <VisitStatusBadge status={visit.status} />
      </div>
      {visit.missedReason ? (
        <p className="mt-2">
          Missed: {visit.missedReason}
          {visit.missedNote ? ` (${visit.missedNote})` : ""}
        </p>
      ) : null}
      {visit.returnVisitOf ? (
        <p className="mt-2">
          Return visit for{" "}
          <Link to={visitPath(visit.returnVisitOf)} className={linkClass}>
            the missed visit
          </Link>
        </p>
      ) : null}
      {visit.returnVisit ? (
        <p className="mt-2">
          Return visit scheduled:{" "}
          <Link to={visitPath(visit.returnVisit.id)} className={linkClass}>
            {visit.returnVisit.dateLabel}
          </Link>
        </p>
      ) : null}

      <section aria-labelledby="status-heading" className="mt-6">
        <h3 id="status-heading" className={h3Class}>
          Status
        </h3>
        <div className="mt-3 flex flex-wrap items-start gap-3">
          {(["complete", "skip", "cancel", "reopen"] as const).filter(can).map((action) => (
            <Form method="post" key={action}>
              <input type="hidden" name="intent" value={action} />
              <button
                type="submit"
                disabled={busy}
                className={action === "complete" ? primaryButtonClass : secondaryButtonClass}
              >
                {VISIT_ACTIONS[action].label}
              </button>
            </Form>
          ))}
        </div>
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          {can("miss") ? (
            <Form method="post" className={panelClass}>
              <input type="hidden" name="intent" value="miss" />
              <fieldset aria-describedby={errors("reason") ? "miss-reason-error" : undefined}>
                <legend className={labelClass}>Why was the visit missed?</legend>
                {MISSED_REASONS.map((reason) => (
                  <CheckboxField
                    key={reason}
                    label={MISSED_REASON_LABELS[reason]}
                    className="mt-2"
                    inputProps={{
                      id: `miss-reason-${reason}`,
                      type: "radio",
                      name: "reason",
                      value: reason,
                      required: true,
                    }}
                  />
                ))}
              </fieldset>
              <ErrorList id="miss-reason-error" errors={errors("reason")} />
              <Field
                label="What happened (required for Other)"
                className="mt-3"
                inputProps={{ id: "miss-reason-text", name: "reasonText", maxLength: 500 }}
                errors={errors("reasonText")}
              />
              <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-4`}>
                {VISIT_ACTIONS.miss.label}
              </button>
            </Form>
          ) : null}
          {can("reschedule") ? (
            <DateForm
              intent="reschedule"
              defaultValue={visit.dateInput}
              label="New date and time"
              error={errors("serviceDate")}
              busy={busy}
            />
          ) : null}
          {can("return-visit") && !visit.returnVisit ? (
            <DateForm
              intent="return-visit"
              defaultValue={visit.returnDateInput}
              label="Return visit date and time"
              error={errors("serviceDate")}
              busy={busy}
            />
          ) : null}
        </div>
      </section>

      <section aria-labelledby="customer-heading" className="mt-8">
        <h3 id="customer-heading" className={h3Class}>
          Customer
        </h3>
        <dl className="mt-3 grid gap-x-8 gap-y-3 sm:grid-cols-3">
          <div>
            <dt className="font-semibold">Name</dt>
            <dd>
              <Link to={`/admin-dashboard/customers/${customer.id}`} className={linkClass}>
                {customer.name ?? customer.email}
              </Link>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">E-mail</dt>
            <dd className="break-all">
              <a href={`mailto:${customer.email}`} className={linkClass}>
                {customer.email}
              </a>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Phone</dt>
            <dd>
              {customer.phone ? (
                <a href={`tel:${customer.phone.replace(/[^\d+]/g, "")}`} className={linkClass}>
                  {customer.phone}
                </a>
              ) : (
                "Not on file"
              )}
            </dd>
          </div>
        </dl>
        <h4 className="mt-4 text-lg font-semibold">Yard</h4>
        <YardDetails yard={yard} />
      </section>

      <section aria-labelledby="media-heading" className="mt-8">
        <h3 id="media-heading" className={h3Class}>
          Before and after
        </h3>
        <div className="mt-4 grid gap-6 md:grid-cols-2">
          <MediaUploadForm imageType="before" label="Before Image/Video" action={upload} disabled={false} />
          <MediaUploadForm imageType="after" label="After Image/Video" action={upload} disabled={false} />
        </div>
        {media.length > 0 ? (
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {media.map((m) => (
              <li key={m.id}>
                <MediaView item={m} />
                <p className="mt-1 text-sm capitalize">{m.imageType}</p>
                <details className="mt-1">
                  <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-red-800 dark:text-red-300">
                    Delete
                  </summary>
                  <Form method="post" className="mt-2">
                    <input type="hidden" name="intent" value="delete-media" />
                    <input type="hidden" name="mediaId" value={m.id} />
                    <p>
                      Delete this {m.imageType} {m.kind === "video" ? "video" : "photo"} for good?
                    </p>
                    <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-2`}>
                      Yes, delete it
                    </button>
                  </Form>
                </details>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-4">No photos or videos yet.</p>
        )}
      </section>

      <section aria-labelledby="notes-heading" className="mt-8 grid gap-6 md:grid-cols-2">
        <Form method="post" className={panelClass}>
          <h3 id="notes-heading" className={h3Class}>
            Notes
          </h3>
          <input type="hidden" name="intent" value="notes" />
          <TextareaField
            key={visit.notes ?? ""}
            label="Notes"
            className="mt-3"
            textareaProps={{
              id: "visit-notes",
              name: "notes",
              rows: 4,
              maxLength: 2000,
              defaultValue: visit.notes ?? "",
            }}
            errors={actionData?.intent === "notes" ? errors("notes") : undefined}
          />
          <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
            Save notes
          </button>
        </Form>
        <Form method="post" className={panelClass}>
          <input type="hidden" name="intent" value="health" />
          <fieldset>
            <legend className={h3Class}>Health notes</legend>
            {HEALTH_FLAGS.map((flag) => (
              <CheckboxField
                key={`${flag}-${(visit.healthFlags as string[]).includes(flag)}`}
                label={HEALTH_FLAG_LABELS[flag]}
                className="mt-2"
                inputProps={{
                  id: `health-${flag}`,
                  name: "healthFlags",
                  value: flag,
                  defaultChecked: (visit.healthFlags as string[]).includes(flag),
                }}
              />
            ))}
          </fieldset>
          <TextareaField
            key={visit.healthNote ?? ""}
            label="Health note"
            className="mt-3"
            textareaProps={{
              id: "health-note",
              name: "healthNote",
              rows: 3,
              maxLength: 2000,
              defaultValue: visit.healthNote ?? "",
            }}
            errors={actionData?.intent === "health" ? errors("healthNote") : undefined}
          />
          <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
            Save health notes
          </button>
          <div className="mt-4">
            <HealthNotesView flags={visit.healthFlags} note={visit.healthNote} />
          </div>
        </Form>
      </section>

      <section aria-labelledby="emails-heading" className="mt-8">
        <h3 id="emails-heading" className={h3Class}>
          E-mails to the customer
        </h3>
        {emails.length === 0 ? (
          <p className="mt-2">None yet.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {emails.map((email) => (
              <li key={email.id}>
                <span className="font-semibold">{email.subject}</span>: {email.status}
                {email.sentAt ? ` ${email.sentAt}` : ""}
                {email.attempts > 0 ? ` (${email.attempts} attempt${email.attempts === 1 ? "" : "s"})` : ""}
                {email.error ? <span className="block text-sm">{email.error}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="history-heading" className="mt-8">
        <h3 id="history-heading" className={h3Class}>
          History
        </h3>
        {history.length === 0 ? (
          <p className="mt-2">No changes yet.</p>
        ) : (
          <ol className="mt-2 space-y-2">
            {history.map((event) => (
              <li key={event.id}>
                <time dateTime={event.at}>{event.when}</time>, {event.who}: {event.what}
              </li>
            ))}
          </ol>
        )}
      </section>
    </article>
  );
}

function DateForm({
  intent,
  defaultValue,
  label,
  error,
  busy,
}: {
  intent: "reschedule" | "return-visit";
  defaultValue: string;
  label: string;
  error: string[] | null | undefined;
  busy: boolean;
}) {
  const id = `${intent}-date`;
  return (
    <Form method="post" className={panelClass}>
      <input type="hidden" name="intent" value={intent} />
      <Field
        label={label}
        inputProps={{ id, type: "datetime-local", name: "serviceDate", required: true, defaultValue }}
        errors={error}
      />
      <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-4`}>
        {VISIT_ACTIONS[intent].label}
      </button>
    </Form>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.visit.serviceType}, ${data.visit.dateLabel} | Visits` : "Visit | Admin Dashboard" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
