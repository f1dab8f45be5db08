import { createImageUrlBuilder } from "@sanity/image-url";
import { getEnv } from "~/utils/env.server";
import type { SanityImage } from "./types";

/** What an <img> needs: sized candidates for srcset, the reserved size, and the text alternative. */
export type ResolvedImage = { src: string; srcSet: string; width: number; height: number; alt: string };

// Images live on Sanity's CDN, so they exist only when the site reads a Sanity project.
function imageBuilder() {
  const { SANITY_PROJECT_ID: projectId, SANITY_DATASET: dataset } = getEnv();
  return projectId && dataset ? createImageUrlBuilder({ projectId, dataset }) : null;
}

/**
 * URLs for an image cropped to `aspectRatio` (width / height) around its hotspot, at a few widths
 * up to `maxWidth`. Null when there is no image, no text alternative, or no Sanity project.
 */
export function resolveImage(
  image: SanityImage,
  { maxWidth, aspectRatio }: { maxWidth: number; aspectRatio: number },
): ResolvedImage | null {
  const builder = imageBuilder();
  if (!builder || !image?.asset || !image.alt) return null;
  const widths = [Math.round(maxWidth / 2), maxWidth, Math.round(maxWidth * 1.5), maxWidth * 2];
  const url = (width: number) =>
    builder
      .image(image)
      .width(width)
      .height(Math.round(width / aspectRatio))
      .fit("crop")
      .auto("format")
      .url();
  return {
    src: url(maxWidth),
    srcSet: widths.map((width) => `${url(width)} ${width}w`).join(", "),
    width: maxWidth,
    height: Math.round(maxWidth / aspectRatio),
    alt: image.alt,
  };
}
