import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { writeDatasetCopy } from "../../../tests/helpers/bundled-dataset";
import { goodQuote, quotePost } from "../../../tests/helpers/quote-form";
import { getAddOns, getQuoteServiceOptions, replaceContentStore } from "~/content/content.server";
import { action } from "~/routes/contact";
import { resetEnvCache } from "~/utils/env.server";
import { dogCountFrom, estimateQuote } from "./quote-estimate";

describe("the instant estimate, from the bundled content", () => {
  it("adds the multi-dog add-on of the add-on document to a monthly plan", async () => {
    const [options, addOns] = await Promise.all([getQuoteServiceOptions(), getAddOns()]);
    const weekly = options.find((option) => option.value === "weekly")?.plan;
    expect(weekly?.price.unit).toBe("month");
    const base = weekly?.price.amount ?? 0;
    // SPEC section 9: +$15/month for 2 dogs, +$25/month for 3 or more, as the content says.
    const tiers = addOns.find((addOn) => addOn.slug === "multi-dog")?.tiers ?? [];
    expect(tiers.map((tier) => [tier.minDogs, tier.monthlyAmount])).toEqual([
      [2, 15],
      [3, 25],
    ]);

    expect(estimateQuote(options, addOns, "weekly", "1")).toEqual({
      cents: base * 100,
      label: `$${base}/month`,
      breakdown: null,
    });
    expect(estimateQuote(options, addOns, "weekly", "2")).toEqual({
      cents: (base + 15) * 100,
      label: `$${base + 15}/month`,
      breakdown: `$${base}/month plan +$15/month Multi-Dog Add-On`,
    });
    expect(estimateQuote(options, addOns, "weekly", "3")?.label).toBe(`$${base + 25}/month`);
    expect(estimateQuote(options, addOns, "weekly", "4+")?.label).toBe(`$${base + 25}/month`);
    // Before a dog count is picked: the plan's own price, which includes one dog.
    expect(estimateQuote(options, addOns, "weekly", "")?.label).toBe(`$${base}/month`);
  });

  it("shows a one-time plan's price with its unit, without the monthly add-on", async () => {
    const [options, addOns] = await Promise.all([getQuoteServiceOptions(), getAddOns()]);
    const dash = options.find((option) => option.value === "dash")?.plan;
    expect(dash?.price.unit).toBe("one-time");
    expect(estimateQuote(options, addOns, "dash", "3")).toEqual({
      cents: null,
      label: `$${dash?.price.amount} one-time`,
      breakdown: null,
    });
  });

  it("has no estimate for a service without a plan, or no service", async () => {
    const [options, addOns] = await Promise.all([getQuoteServiceOptions(), getAddOns()]);
    expect(options.find((option) => option.value === "commercial")?.plan).toBeNull();
    expect(estimateQuote(options, addOns, "commercial", "2")).toBeNull();
    expect(estimateQuote(options, addOns, "", "2")).toBeNull();
  });

  it("shows per-bin and 'from' prices as they are", () => {
    const options = [
      {
        value: "bins",
        plan: {
          name: "Bins",
          slug: "bins",
          kind: "one-time" as const,
          price: { amount: 20, unit: "per-bin" as const },
        },
      },
      {
        value: "big",
        plan: { name: "Big", slug: "big", kind: "one-time" as const, price: { amount: 250, unit: "from" as const } },
      },
    ];
    const addOns = [{ name: "Multi-Dog Add-On", tiers: [{ _key: "a", minDogs: 2, monthlyAmount: 15 }] }];
    expect(estimateQuote(options, addOns, "bins", "2")?.label).toBe("$20 per bin");
    expect(estimateQuote(options, addOns, "big", "2")?.label).toBe("$250+");
  });

  it("reads dog counts", () => {
    expect([dogCountFrom("1"), dogCountFrom("4+"), dogCountFrom(""), dogCountFrom("many")]).toEqual([1, 4, null, null]);
  });
});

describe("the estimate follows a price change in content", () => {
  const database = useAppDatabase();
  let folder: string;

  beforeAll(() => {
    // A copy of the dataset with the weekly plan at $99 and the two-dog tier at $20.
    folder = mkdtempSync(path.join(os.tmpdir(), "quote-content-"));
    const dataPath = writeDatasetCopy(folder, (doc) => {
      const changed = doc as typeof doc & {
        price?: { amount: number };
        tiers?: { minDogs: number; monthlyAmount: number }[];
      };
      if (changed._id === "servicePlan.weekly" && changed.price) changed.price.amount = 99;
      if (changed._id === "addOn.multi-dog")
        for (const tier of changed.tiers ?? []) if (tier.minDogs === 2) tier.monthlyAmount = 20;
      return changed;
    });
    process.env.CONTENT_DATASET_PATH = dataPath;
    resetEnvCache();
    replaceContentStore(undefined);
  });

  afterAll(() => {
    delete process.env.CONTENT_DATASET_PATH;
    resetEnvCache();
    replaceContentStore(undefined);
    rmSync(folder, { recursive: true, force: true });
  });

  it("computes and stores the new figure", async () => {
    const [options, addOns] = await Promise.all([getQuoteServiceOptions(), getAddOns()]);
    expect(estimateQuote(options, addOns, "weekly", "2")?.label).toBe("$119/month");

    const response = await action({
      request: quotePost(goodQuote({ service: "weekly", dogs: "2" })),
      params: {},
      context: {},
    });
    expect(response.status).toBe(302);
    const row = await database.current.db.selectFrom("quote_requests").selectAll().executeTakeFirstOrThrow();
    expect(row.estimate_cents).toBe(11900);
    expect(row.estimate_label).toBe("$119/month");
  });
});
