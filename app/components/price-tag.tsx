import { describePrice, formatPrice } from "~/content/pricing";
import type { Price } from "~/content/types";

/** The plan's one price, shown compactly and read out in words ("from $N", not "$N+"). */
export function PriceTag({ price, size = "md" }: { price: Price; size?: "md" | "lg" }) {
  const text = size === "lg" ? "text-3xl sm:text-4xl" : "text-2xl";
  const shown = formatPrice(price);
  const spoken = describePrice(price);
  return (
    <p className={`font-bold ink-brand hc:text-black ${text}`}>
      {spoken === shown ? (
        shown
      ) : (
        <>
          <span aria-hidden="true">{shown}</span>
          <span className="sr-only">{spoken}</span>
        </>
      )}
    </p>
  );
}
