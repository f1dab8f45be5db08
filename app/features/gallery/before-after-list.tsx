import { CompareSlider, CompareSlidersScript } from "~/components/compare-slider";
import type { GalleryPair } from "./gallery.server";

/** Before & After pairs as a grid of comparison sliders, each with its caption. */
export function BeforeAfterList({ pairs, headingLevel = 3 }: { pairs: GalleryPair[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <>
      <ul className="grid gap-10 md:grid-cols-2 xl:grid-cols-3">
        {pairs.map((pair) => (
          <li key={pair.id}>
            <figure className="flex h-full flex-col">
              <CompareSlider
                before={pair.before}
                after={pair.after}
                sizes="(min-width: 1280px) 24rem, (min-width: 768px) 50vw, 100vw"
                ownScript={false}
              />
              <figcaption className="mt-3">
                <Heading className="text-lg font-semibold ink">{pair.caption}</Heading>
                <p className="mt-1 ink-muted">{[pair.serviceName, pair.neighbourhood].filter(Boolean).join(" · ")}</p>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
      <CompareSlidersScript />
    </>
  );
}
