import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CompareSlider } from "~/components/compare-slider";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { VisitStatusBadge } from "~/components/status-badge";
import { requireUser } from "~/features/accounts/auth.server";
import { mediaKindOf } from "~/features/media/visit-media.server";
import { MediaView } from "~/features/media/media-view";
import { onTheWaySince } from "~/features/notices/on-my-way-view.server";
import { OnTheWayNotice } from "~/features/notices/on-the-way-notice";
import { HealthNotesView } from "~/features/visits/health-notes-view";
import { MISSED_REASON_LABELS } from "~/features/visits/visit-constants";
import { listMediaForVisit } from "~/models/visit-media.server";
import { getVisitForCustomer } from "~/models/visit.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";

// One of the signed-in customer's own visits; anyone else's id is a 404, like a missing one.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const visit = await getVisitForCustomer(params.visitId ?? "", user.id);
  if (!visit) throw new Response("Visit not found", { status: 404 });
  const media = await listMediaForVisit(visit.id);
  const date = formatBusinessDate(visit.service_date);
  const items = media.map((m) => ({
    id: m.id,
    url: `/resources/media/${m.id}`,
    kind: mediaKindOf(m),
    imageType: m.image_type,
    serviceType: visit.service_type,
    dateLabel: date,
  }));
  const beforeImage = items.find((m) => m.imageType === "before" && m.kind === "image");
  const afterImage = items.findLast((m) => m.imageType === "after" && m.kind === "image");
  return json(
    {
      visit: {
        serviceType: visit.service_type,
        date: visit.service_date.toISOString(),
        dateLabel: formatBusinessDateTime(visit.service_date),
        status: visit.status,
        notes: visit.notes,
        healthFlags: visit.health_flags,
        healthNote: visit.health_note,
        missedReason: visit.missed_reason ? MISSED_REASON_LABELS[visit.missed_reason] : null,
        onTheWaySince: onTheWaySince(visit),
      },
      compare:
        beforeImage && afterImage
          ? {
              before: { src: beforeImage.url, alt: `Your yard before the ${visit.service_type} visit on ${date}` },
              after: { src: afterImage.url, alt: `Your yard after the ${visit.service_type} visit on ${date}` },
            }
          : null,
      media: items,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const h2Class = "text-xl font-semibold text-slate-900 dark:text-white";

export default function CustomerVisit() {
  const { visit, compare, media } = useLoaderData<typeof loader>();
  return (
    <article aria-labelledby="visit-heading" className="mx-auto max-w-4xl px-4 py-10">
      <Link
        to="/customer-dashboard/visits"
        className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200"
      >
        <span aria-hidden="true">←&nbsp;</span>Visit history
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 id="visit-heading" className="text-3xl font-bold text-slate-900 dark:text-white">
          {visit.serviceType}, <time dateTime={visit.date}>{visit.dateLabel}</time>
        </h1>
        <VisitStatusBadge status={visit.status} />
      </div>
      <OnTheWayNotice since={visit.onTheWaySince} />
      {visit.missedReason ? <p className="mt-2">We couldn&apos;t complete this visit: {visit.missedReason}.</p> : null}
      {visit.notes ? (
        <section aria-labelledby="notes-heading" className="mt-6">
          <h2 id="notes-heading" className={h2Class}>
            Notes
          </h2>
          <p className="mt-2 whitespace-pre-wrap">{visit.notes}</p>
        </section>
      ) : null}
      <section aria-labelledby="health-heading" className="mt-6">
        <h2 id="health-heading" className={h2Class}>
          Health notes
        </h2>
        <div className="mt-2">
          <HealthNotesView flags={visit.healthFlags} note={visit.healthNote} />
        </div>
      </section>
      {compare ? (
        <section aria-labelledby="compare-heading" className="mt-8">
          <h2 id="compare-heading" className={h2Class}>
            Before and after
          </h2>
          <div className="mt-3">
            <CompareSlider before={compare.before} after={compare.after} />
          </div>
        </section>
      ) : null}
      <section aria-labelledby="media-heading" className="mt-8">
        <h2 id="media-heading" className={h2Class}>
          Photos and videos
        </h2>
        {media.length === 0 ? (
          <p className="mt-2">No photos or videos for this visit yet.</p>
        ) : (
          <ul className="mt-3 grid gap-4 sm:grid-cols-2">
            {media.map((m) => (
              <li key={m.id}>
                <MediaView item={m} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.visit.serviceType}, ${data.visit.dateLabel}` : "Visit" },
  { name: "robots", content: "noindex" },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
