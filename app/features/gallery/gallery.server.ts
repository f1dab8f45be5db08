import { getBeforeAfterPairs } from "~/content/content.server";
import { resolveImage, type ResolvedImage } from "~/content/images.server";

/** One published pair, ready for the comparison slider: both pictures cropped to the same box. */
export type GalleryPair = {
  id: string;
  caption: string;
  neighbourhood: string;
  serviceName: string | null;
  before: ResolvedImage;
  after: ResolvedImage;
};

/**
 * Pairs share one frame (4:3) so that the slider compares like with like. A pair is at most
 * 24rem wide from xl, half the screen from md and the whole screen below: only a phone narrower
 * than 300 px at 1x would take a 300 px picture, so the srcset starts at 600 (decision 074).
 */
const PAIR_FRAME = { maxWidth: 600, aspectRatio: 4 / 3, scales: [1, 1.5, 2] };

/** The published pairs (customer consent is part of the query), in gallery order; `limit` for the home page. */
export async function getGalleryPairs(limit?: number): Promise<GalleryPair[]> {
  const pairs = await getBeforeAfterPairs();
  const ready = pairs.flatMap((pair) => {
    const before = resolveImage(pair.before, PAIR_FRAME);
    const after = resolveImage(pair.after, PAIR_FRAME);
    // A pair missing a picture or its alt text is left out rather than shown half.
    if (!before || !after) return [];
    return [
      {
        id: pair._id,
        caption: pair.caption,
        neighbourhood: pair.neighbourhood,
        serviceName: pair.service?.name ?? null,
        before,
        after,
      },
    ];
  });
  return limit === undefined ? ready : ready.slice(0, limit);
}
