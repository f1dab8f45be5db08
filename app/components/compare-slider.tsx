import { useEffect, useId, useState } from "react";

type Image = { src: string; alt: string };

/**
 * A before/after comparison. Without JavaScript (and before hydration) the two images stand side
 * by side. With it, the after image lies over the before image and a native range input,
 * labelled "Compare before and after", moves the edge: arrow keys step it, Home and End go to
 * the ends, and a screen reader announces the value. Self-contained: no data access.
 */
export function CompareSlider({
  before,
  after,
  label = "Compare before and after",
}: {
  before: Image;
  after: Image;
  label?: string;
}) {
  const id = useId();
  const [enhanced, setEnhanced] = useState(false);
  const [position, setPosition] = useState(50);
  useEffect(() => setEnhanced(true), []);

  if (!enhanced) {
    return (
      <div className="grid gap-4 sm:grid-cols-2" data-compare="side-by-side">
        <figure>
          <img src={before.src} alt={before.alt} className="w-full rounded-lg object-cover" />
          <figcaption className="mt-1 text-sm">Before</figcaption>
        </figure>
        <figure>
          <img src={after.src} alt={after.alt} className="w-full rounded-lg object-cover" />
          <figcaption className="mt-1 text-sm">After</figcaption>
        </figure>
      </div>
    );
  }

  return (
    <div data-compare="slider">
      <div className="relative overflow-hidden rounded-lg">
        <img src={before.src} alt={before.alt} className="block w-full object-cover" />
        <img
          src={after.src}
          alt={after.alt}
          className="absolute inset-0 block h-full w-full object-cover"
          // The after image shows from the left edge up to the slider's position.
          style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 w-1 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
          style={{ left: `calc(${position}% - 2px)` }}
        />
      </div>
      <label htmlFor={id} className="mt-3 block font-semibold">
        {label}
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        step={1}
        value={position}
        aria-valuetext={`${position}% after, ${100 - position}% before`}
        onChange={(event) => setPosition(Number(event.currentTarget.value))}
        className="mt-1 block min-h-11 w-full accent-brand-700"
      />
      <p className="flex justify-between text-sm" aria-hidden="true">
        <span>Before</span>
        <span>After</span>
      </p>
    </div>
  );
}
