import { useEffect, useRef } from "react";
import { useNonce } from "~/utils/nonce";

/**
 * CompareSlider: two pictures of the same place, compared with a divider the visitor moves.
 *
 *   <CompareSlider before={image} after={image} sizes="(min-width: 768px) 50vw, 100vw" />
 *
 * Props
 * - before, after: { src, srcSet?, alt, width, height } (a ResolvedImage fits as is). Both keep
 *   their alt text in every mode; width and height reserve the space (no layout shift).
 * - sizes: the `sizes` of both images (default "100vw").
 * - label: the accessible name of the slider (default "Compare before and after").
 * - priority: load eagerly (the largest picture above the fold); lazy otherwise.
 * - ownScript: false when a <CompareSlidersScript/> follows (several sliders on one page).
 *
 * Behaviour
 * - Without JavaScript the two pictures stand side by side, each captioned Before / After.
 * - With JavaScript they are stacked: the "before" picture covers the part left of the divider.
 *   A native range input (0-100, the divider's position in percent) moves it: drag or click,
 *   arrow keys step by 1%, Page Up/Down by 10%, Home and End go to the ends (all after / all
 *   before). The input is invisible over the pictures; its focus ring is drawn on the handle.
 * - The enhancement is a few lines of plain script that run as soon as the markup is parsed (no
 *   wait for React, no layout jump), and again from an effect after client-side navigation.
 */

/** width and height may be unknown (a customer's uploaded photo): the space is then not reserved. */
export type CompareImage = { src: string; srcSet?: string; alt: string; width?: number; height?: number };

export type CompareSliderProps = {
  before: CompareImage;
  after: CompareImage;
  sizes?: string;
  label?: string;
  priority?: boolean;
  ownScript?: boolean;
};

/**
 * Wires one slider: the range input sets --position on the root. Self-contained (it is also
 * inlined as a script, so it may not use anything from this module's scope).
 */
function enhance(root: HTMLElement | null) {
  if (!root || root.dataset.enhanced === "true") return;
  const input = root.querySelector("input");
  if (!input) return;
  const update = () => {
    const value = Number(input.value);
    root.style.setProperty("--position", `${value}%`);
    input.setAttribute("aria-valuetext", `${value}% before, ${100 - value}% after`);
  };
  input.addEventListener("input", update);
  update();
  root.dataset.enhanced = "true";
}

// Indentation dropped (every line keeps its end, so the code means the same): bytes of HTML.
const ENHANCE_SOURCE = enhance.toString().replace(/\n\s+/g, "\n");
const INLINE_SCRIPT = `(${ENHANCE_SOURCE})(document.currentScript && document.currentScript.parentElement)`;
/** One script for a list of sliders (decision 067): every slider before it on the page. */
const LIST_SCRIPT = `document.querySelectorAll("[data-compare]").forEach(${ENHANCE_SOURCE})`;

/**
 * Wires every slider rendered above it that has no script of its own (`ownScript={false}`):
 * a page with several sliders carries the enhancement once instead of once per slider.
 */
export function CompareSlidersScript() {
  const nonce = useNonce();
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: LIST_SCRIPT }} />;
}

function Picture({
  image,
  caption,
  sizes,
  priority,
}: {
  image: CompareImage;
  caption: string;
  sizes: string;
  priority: boolean;
}) {
  return (
    <>
      <img
        src={image.src}
        srcSet={image.srcSet}
        sizes={image.srcSet ? sizes : undefined}
        width={image.width}
        height={image.height}
        alt={image.alt}
        loading={priority ? "eager" : "lazy"}
        decoding="async"
        draggable={false}
      />
      <span>{caption}</span>
    </>
  );
}

export function CompareSlider({
  before,
  after,
  sizes = "100vw",
  label = "Compare before and after",
  priority = false,
  ownScript = true,
}: CompareSliderProps) {
  const root = useRef<HTMLDivElement>(null);
  const nonce = useNonce();
  // After a client-side navigation React inserts the inline script without running it.
  useEffect(() => enhance(root.current), []);

  return (
    // Styled by [data-compare] and the compare-* classes (app/tailwind.css): --position, the
    // divider's place, starts at 50% there and is then set by the script on this element.
    <div
      ref={root}
      data-compare=""
      // The inline script marks the root before React hydrates.
      suppressHydrationWarning
    >
      <div className="compare-grid">
        <div className="compare-before">
          <Picture image={before} caption="Before" sizes={sizes} priority={priority} />
        </div>
        <div className="compare-after">
          <Picture image={after} caption="After" sizes={sizes} priority={priority} />
        </div>
      </div>
      {/* A range's defaults are the slider's: 0 to 100 in steps of 1, starting at 50. */}
      <input type="range" aria-label={label} className="compare-input" />
      <div aria-hidden="true" className="compare-divider">
        <span className="compare-handle">↔</span>
      </div>
      {ownScript ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: INLINE_SCRIPT }} /> : null}
    </div>
  );
}
