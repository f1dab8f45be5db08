export type MediaViewItem = {
  id: string;
  url: string;
  kind: "image" | "video";
  imageType: "before" | "after";
  serviceType: string;
  dateLabel: string;
};

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** SPEC 3: videos play in place with controls; images carry a description of the visit. */
export function MediaView({ item }: { item: MediaViewItem }) {
  const description = `${capitalized(item.imageType)} ${item.kind === "video" ? "video" : "photo"} of ${
    item.serviceType
  } on ${item.dateLabel}`;
  if (item.kind === "video") {
    return (
      // Yard videos are silent work records: there is no speech to caption.
      // eslint-disable-next-line jsx-a11y/media-has-caption
      <video
        controls
        preload="metadata"
        src={item.url}
        aria-label={description}
        className="aspect-video w-full rounded-lg bg-slate-900 object-contain"
      >
        <a href={item.url}>{description}</a>
      </video>
    );
  }
  return (
    <img
      src={item.url}
      alt={description}
      loading="lazy"
      className="aspect-video w-full rounded-lg bg-slate-100 object-cover dark:bg-slate-800"
    />
  );
}
