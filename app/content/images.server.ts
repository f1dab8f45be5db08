import path from "node:path";
import { createImageUrlBuilder } from "@sanity/image-url";
import { getEnv } from "~/utils/env.server";
import { loadDatasetArchive, readContentEnv } from "./content.server";
import { EMBEDDED_DATASET, EMBEDDED_IMAGE_BASE_URL, EMBEDDED_PROJECT_ID } from "./image-cdn";
import { createVariantCache, type EmbeddedImageSource, type VariantCache } from "./image-cdn.server";
import type { SanityImage } from "./types";

/** What an <img> needs: sized candidates for srcset, the reserved size, and the text alternative. */
export type ResolvedImage = { src: string; srcSet: string; width: number; height: number; alt: string };

/**
 * Sanity's CDN when the site reads a Sanity project; otherwise the embedded image route, which
 * takes the same parameters. Either way the URLs come from @sanity/image-url.
 */
function imageBuilder() {
  const { SANITY_PROJECT_ID: projectId, SANITY_DATASET: dataset } = getEnv();
  return projectId && dataset
    ? createImageUrlBuilder({ projectId, dataset })
    : createImageUrlBuilder({
        projectId: EMBEDDED_PROJECT_ID,
        dataset: EMBEDDED_DATASET,
        baseUrl: EMBEDDED_IMAGE_BASE_URL,
      });
}

/** The srcset widths, as multiples of `maxWidth` (the 1x width). */
const DEFAULT_SCALES = [0.5, 1, 1.5, 2];

/**
 * URLs for an image cropped to `aspectRatio` (width / height) around its hotspot, at a few widths
 * up to `maxWidth` (auto=format: WebP where the browser takes it). Null when there is no image or
 * no text alternative. `scales` lists the srcset widths as multiples of `maxWidth`: a picture
 * that is never shown narrower than half its width needs no half-width candidate (074).
 */
export function resolveImage(
  image: SanityImage,
  { maxWidth, aspectRatio, scales = DEFAULT_SCALES }: { maxWidth: number; aspectRatio: number; scales?: number[] },
): ResolvedImage | null {
  if (!image?.asset || !image.alt?.trim()) return null;
  const builder = imageBuilder();
  const widths = scales.map((scale) => Math.round(maxWidth * scale));
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

let variantCache: { folder: string; cache: VariantCache } | undefined;

/** The bundled dataset's images for the embedded image route, rendered variants under DATA_DIR. */
export function embeddedImageSource(): EmbeddedImageSource {
  const env = getEnv();
  const folder = path.resolve(env.DATA_DIR, "image-cache");
  if (variantCache?.folder !== folder) variantCache = { folder, cache: createVariantCache(folder) };
  return {
    projectId: EMBEDDED_PROJECT_ID,
    dataset: EMBEDDED_DATASET,
    // With a Sanity project, images live on Sanity's CDN: this route has none to serve.
    images: () => (env.SANITY_PROJECT_ID ? null : loadDatasetArchive(readContentEnv().datasetPath).images),
    cache: variantCache.cache,
  };
}
