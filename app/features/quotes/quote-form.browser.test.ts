import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bundleBrowserScript } from "../../../scripts/build-browser-scripts.mjs";
import { quoteEstimateMarkup } from "./quote-estimate-markup";
import { quoteFormData, serializeQuoteFormData } from "./quote-form-data";

describe("the quote form's browser script (decision 068)", () => {
  it("bundles without React, Remix or server code, in a few kilobytes", async () => {
    const result = await bundleBrowserScript("app/features/quotes/quote-form.browser.ts");
    const inputs = Object.keys(result.metafile!.inputs);
    const forbidden = inputs.filter((input) =>
      /node_modules\/(react|react-dom|scheduler|@remix-run|react-router|remix-utils|@conform-to\/react)\/|\.server\.|\/routes\/|\.tsx$/.test(
        input,
      ),
    );
    expect(forbidden).toEqual([]);
    const gzip = gzipSync(result.outputFiles![0].contents, { level: 9 }).length;
    // About 20 KB, zod most of it; the page's budget is 90 KB (issue 15).
    expect(gzip).toBeLessThan(30 * 1024);
  });
});

describe("the estimate's markup, shared by the server and the script", () => {
  it("is empty without an estimate, and escapes content's text", () => {
    expect(quoteEstimateMarkup(null)).toBe("");
    const markup = quoteEstimateMarkup({
      cents: 10400,
      label: "$104/month",
      breakdown: "$89/month plan +$15/month <Dogs> & Co",
    });
    expect(markup).toBe(
      '<div class="rounded-lg bg-brand-50 p-4 dark:bg-brand-950 hc:bg-white">' +
        '<p class="text-lg font-semibold">Estimated price: $104/month</p>' +
        '<p class="text-sm">$89/month plan +$15/month &lt;Dogs&gt; &amp; Co</p>' +
        '<p class="text-sm">This is an estimate, not a final price.</p></div>',
    );
    expect(quoteEstimateMarkup({ cents: null, label: "$85 one-time", breakdown: null })).not.toContain("plan +");
  });
});

describe("the data block the script reads", () => {
  it("holds only what the estimate needs, and cannot close its script element", () => {
    const data = quoteFormData(
      [
        {
          _id: "a",
          value: "weekly",
          label: "Weekly",
          plan: { name: "Weekly", slug: "weekly", kind: "subscription", price: { amount: 89, unit: "month" } },
        },
        { _id: "b", value: "commercial", label: "Commercial", plan: null },
      ],
      [
        {
          _id: "c",
          name: "</script><script>alert(1)</script>",
          slug: "multi-dog",
          description: "More dogs",
          tiers: [{ _key: "k", minDogs: 2, monthlyAmount: 15 }],
        },
      ],
    );
    expect(data).toEqual({
      services: [
        { value: "weekly", plan: { price: { amount: 89, unit: "month" } } },
        { value: "commercial", plan: null },
      ],
      addOns: [{ name: "</script><script>alert(1)</script>", tiers: [{ minDogs: 2, monthlyAmount: 15 }] }],
    });
    const json = serializeQuoteFormData(data);
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual(data);
  });
});
