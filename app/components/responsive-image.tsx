import type { ResolvedImage } from "~/content/images.server";

/** A content image with its size reserved (no layout shift) and lazy unless it is above the fold. */
export function ResponsiveImage({
  image,
  sizes,
  priority = false,
  className = "",
}: {
  image: ResolvedImage;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading={priority ? "eager" : "lazy"}
      decoding={priority ? "auto" : "async"}
      // React 18 does not know fetchPriority yet; the lower-case attribute passes through as is.
      {...(priority ? { fetchpriority: "high" } : {})}
      className={`h-auto w-full rounded-2xl object-cover ${className}`}
    />
  );
}
