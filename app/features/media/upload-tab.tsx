import { MediaUploadForm } from "./media-upload-form";
import { MediaView, type MediaViewItem } from "./media-view";

/**
 * The "Upload Images" tab: the before and after forms for the current visit, which post to
 * the upload resource route, and what was uploaded for it so far.
 */
export function UploadTab({ visitId, media }: { visitId: string | null; media: MediaViewItem[] }) {
  const action = visitId ? `/resources/media-upload?${new URLSearchParams({ service: visitId })}` : "";
  return (
    <section aria-labelledby="upload-heading" className="mt-6">
      <h2 id="upload-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Upload Images
      </h2>
      {visitId ? null : (
        <p className="mt-2 text-lg text-slate-800 dark:text-slate-100">Create a service first to upload images</p>
      )}
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        <MediaUploadForm imageType="before" label="Before Image/Video" action={action} disabled={!visitId} />
        <MediaUploadForm imageType="after" label="After Image/Video" action={action} disabled={!visitId} />
      </div>
      {media.length > 0 ? (
        <div className="mt-8">
          <h3 className="text-xl font-semibold text-slate-900 dark:text-white">Uploaded for this service</h3>
          <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {media.map((m) => (
              <li key={m.id}>
                <MediaView item={m} />
                <p className="mt-1 text-sm capitalize text-slate-700 dark:text-slate-300">{m.imageType}</p>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
