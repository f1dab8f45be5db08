import { describe, expect, test } from "vitest";
import {
  addOnAmountFor,
  describePrice,
  describeTier,
  estimateMonthlyPrice,
  formatMonthlyExtra,
  formatPrice,
} from "./pricing";

const multiDog = {
  tiers: [
    { _key: "a", minDogs: 2, monthlyAmount: 15 },
    { _key: "b", minDogs: 3, monthlyAmount: 25 },
  ],
};

describe("formatPrice", () => {
  test.each([
    [{ amount: 89, unit: "month" }, "$89/month"],
    [{ amount: 85, unit: "one-time" }, "$85 one-time"],
    [{ amount: 20, unit: "per-bin" }, "$20 per bin"],
    [{ amount: 250, unit: "from" }, "$250+"],
    [{ amount: 89.5, unit: "month" }, "$89.50/month"],
    [{ amount: 1250, unit: "one-time" }, "$1,250 one-time"],
  ] as const)("%o → %s", (price, expected) => {
    expect(formatPrice(price)).toBe(expected);
  });

  test("a spoken form for screen readers", () => {
    expect(describePrice({ amount: 250, unit: "from" })).toBe("from $250");
    expect(describePrice({ amount: 89, unit: "month" })).toBe("$89 per month");
  });
});

describe("estimateMonthlyPrice", () => {
  const weekly = { amount: 89, unit: "month" } as const;

  test.each([
    [1, 89],
    [2, 104],
    [3, 114],
    [4, 114],
    [9, 114],
  ])("%i dog(s) → $%i per month", (dogs, expected) => {
    expect(estimateMonthlyPrice(weekly, dogs, [multiDog])).toBe(expected);
  });

  test("the tiers may be listed in any order", () => {
    const reversed = { tiers: [...multiDog.tiers].reverse() };
    expect(estimateMonthlyPrice(weekly, 2, [reversed])).toBe(104);
    expect(estimateMonthlyPrice(weekly, 3, [reversed])).toBe(114);
  });

  test("no add-ons: the plan price", () => {
    expect(estimateMonthlyPrice(weekly, 3, [])).toBe(89);
  });

  test('one-time, per-bin and "from" prices have no monthly estimate', () => {
    expect(estimateMonthlyPrice({ amount: 85, unit: "one-time" }, 2, [multiDog])).toBeNull();
    expect(estimateMonthlyPrice({ amount: 20, unit: "per-bin" }, 2, [multiDog])).toBeNull();
    expect(estimateMonthlyPrice({ amount: 250, unit: "from" }, 2, [multiDog])).toBeNull();
  });

  test("a dog count that is not a positive whole number has no estimate", () => {
    expect(estimateMonthlyPrice(weekly, 0, [multiDog])).toBeNull();
    expect(estimateMonthlyPrice(weekly, 1.5, [multiDog])).toBeNull();
    expect(estimateMonthlyPrice(weekly, Number.NaN, [multiDog])).toBeNull();
  });

  test("cents are kept exact", () => {
    expect(
      estimateMonthlyPrice({ amount: 89.1, unit: "month" }, 2, [{ tiers: [{ minDogs: 2, monthlyAmount: 0.2 }] }]),
    ).toBe(89.3);
  });
});

describe("add-on tiers", () => {
  test("the amount for a dog count", () => {
    expect(addOnAmountFor(multiDog, 1)).toBe(0);
    expect(addOnAmountFor(multiDog, 2)).toBe(15);
    expect(addOnAmountFor(multiDog, 5)).toBe(25);
  });

  test("labels", () => {
    expect(describeTier(multiDog, 2)).toBe("2 dogs");
    expect(describeTier(multiDog, 3)).toBe("3+ dogs");
    expect(
      describeTier(
        {
          tiers: [
            { _key: "a", minDogs: 2, monthlyAmount: 1 },
            { _key: "b", minDogs: 5, monthlyAmount: 2 },
          ],
        },
        2,
      ),
    ).toBe("2–4 dogs");
    expect(formatMonthlyExtra(15)).toBe("+$15/month");
  });
});
