import { Form } from "@remix-run/react";
import { h3Class, type AdminVisitData } from "./admin-visit-view";
import { secondaryButtonClass } from "~/components/ui-classes";
import { visitPath } from "./visit-paths";
import { MediaUploadForm } from "~/features/media/media-upload-form";
import { MediaView } from "~/features/media/media-view";
import { mediaUploadAction } from "~/features/media/upload-back";

/** The visit page's Before and after section: the two upload forms and each item with Delete. */
export function AdminVisitMedia({
  visitId,
  media,
  busy,
}: {
  visitId: string;
  media: AdminVisitData["media"];
  busy: boolean;
}) {
  // The uploads come back to this page, not to the dashboard's upload tab.
  const upload = mediaUploadAction(visitId, visitPath(visitId));
  return (
    <section aria-labelledby="media-heading" className="mt-8">
      <h3 id="media-heading" className={h3Class}>
        Before and after
      </h3>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <MediaUploadForm imageType="before" label="Before Image/Video" action={upload} disabled={false} camera />
        <MediaUploadForm imageType="after" label="After Image/Video" action={upload} disabled={false} camera />
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
  );
}
