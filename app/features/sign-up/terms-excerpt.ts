import type { PortableTextBody } from "~/content/types";

/**
 * The Terms' own words the summary quotes before any card (docs/decisions/129): the sections
 * whose heading names subscriptions or cancellations, from the legal page in Sanity, so the
 * summary never carries a copy of them that could go stale. The owner keeps those words in the
 * headings; without them the summary links the whole Terms only.
 */
const QUOTED = /subscription|cancel/i;

export function termsExcerpt(body: PortableTextBody): PortableTextBody {
  const blocks: PortableTextBody = [];
  let quoting = false;
  for (const block of body) {
    const style: unknown = "style" in block ? block.style : undefined;
    if (typeof style === "string" && /^h[1-6]$/.test(style)) {
      const children = "children" in block && Array.isArray(block.children) ? block.children : [];
      const heading = children.map((child) => ("text" in child ? String(child.text) : "")).join("");
      quoting = QUOTED.test(heading);
    }
    if (quoting) blocks.push(block);
  }
  return blocks;
}
