import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { YARD_SIZES } from "../../../db/enums";
import { firstOpenDay, firstVisitCandidates } from "./first-visit";
import { MAX_DOGS } from "./sign-up-schema";
import { quoteSignUp, signUpPlans } from "./sign-up-price";
import { addOnAmountFor } from "~/content/pricing";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { monthCharge, serviceDaysInMonth } from "~/features/billing/billing-rules";

/**
 * /start's prices against the bundled Sanity catalogue (issue 37): every subscription plan, dog
 * count, yard size and last-cleaned answer, computed here from the catalogue's own fields; the
 * first month's proration; the same-day cut-off and the day's capacity.
 */
describe("sign-up prices", () => {
  it("prices every plan x dogs x yard size x last-cleaned answer as the catalogue does", async () => {
    const [catalogue, addOns, settings] = await Promise.all([getCatalogue(), getAddOns(), getSiteSettings()]);
    const signUp = settings.signUp!;
    const plans = signUpPlans(catalogue);
    expect(plans.map((plan) => plan.visitsPerWeek).sort()).toEqual([1, 2, 3]);
    expect(signUp.initialCleans.length).toBeGreaterThanOrEqual(2);
    let checked = 0;
    for (const card of plans) {
      for (let dogs = 1; dogs <= MAX_DOGS; dogs += 1) {
        // Written out from the catalogue's fields: the plan's dollars plus each add-on's tier.
        const expectedMonthly =
          Math.round(card.price.amount * 100) +
          addOns.reduce((sum, addOn) => sum + Math.round(addOnAmountFor(addOn, dogs) * 100), 0);
        for (const _size of YARD_SIZES) {
          for (const clean of signUp.initialCleans) {
            // A Monday start on the 1st of a month with Monday visits: a whole month, no proration.
            const quote = quoteSignUp({
              card,
              dogCount: dogs,
              addOns,
              settings: signUp,
              lastCleaned: clean.answer,
              weekdays: [1, 2, 3].slice(0, card.visitsPerWeek!),
              startDate: "2027-03-01",
              prorateFirstMonth: true,
            })!;
            expect(quote.monthlyCents).toBe(expectedMonthly);
            expect(quote.initialCleanCents).toBe(Math.round(clean.amount * 100));
            expect(quote.todayCents).toBe(expectedMonthly + Math.round(clean.amount * 100));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBe(3 * MAX_DOGS * YARD_SIZES.length * signUp.initialCleans.length);
    // The bundled figures themselves, so that a changed catalogue is noticed here.
    const weekly = plans.find((plan) => plan.visitsPerWeek === 1)!;
    const two = quoteSignUp({
      card: weekly,
      dogCount: 2,
      addOns,
      settings: signUp,
      lastCleaned: "1-3-months",
      weekdays: [1],
      startDate: "2027-03-01",
      prorateFirstMonth: true,
    })!;
    expect(two.initialCleanCents).toBe(5900);
    expect(two.monthly.priceCents).toBe(Math.round(weekly.price.amount * 100));
  });

  it("refuses an answer the catalogue does not have, and a plan that is not a subscription", async () => {
    const [catalogue, addOns, settings] = await Promise.all([getCatalogue(), getAddOns(), getSiteSettings()]);
    const oneTime = catalogue.find((card) => card.visitsPerWeek === null)!;
    const base = {
      dogCount: 1,
      addOns,
      settings: settings.signUp!,
      weekdays: [1],
      startDate: "2027-03-01",
      prorateFirstMonth: true,
    };
    expect(quoteSignUp({ ...base, card: oneTime, lastCleaned: "under-2-weeks" })).toBeNull();
    expect(quoteSignUp({ ...base, card: signUpPlans(catalogue)[0], lastCleaned: "yesterday" })).toBeNull();
  });

  it("charges the first month as the billing run bills it: the share of the visits left", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 100_000 }),
        fc.integer({ min: 0, max: 27 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (monthly, offset, weekdays, prorate) => {
          const day = `2027-03-${String(1 + offset).padStart(2, "0")}`;
          const card = {
            _id: "p",
            name: "P",
            visitsPerWeek: weekdays.length,
            price: { amount: monthly / 100, unit: "month" as const },
          };
          const quote = quoteSignUp({
            card,
            dogCount: 1,
            addOns: [],
            settings: { initialCleans: [{ answer: "x", label: "X", amount: 10 }] },
            lastCleaned: "x",
            weekdays,
            startDate: day,
            prorateFirstMonth: prorate,
          });
          const billed = monthCharge({ weekdays, start_date: day }, "2027-03-01", monthly, prorate);
          if (!billed) return quote === null;
          const left = serviceDaysInMonth(weekdays, "2027-03-01", day);
          const all = serviceDaysInMonth(weekdays, "2027-03-01");
          expect(quote!.firstMonth).toEqual(billed);
          expect(quote!.todayCents).toBe(1000 + billed.amountCents);
          if (prorate) expect(billed.amountCents).toBe(Math.floor((2 * monthly * left + all) / (2 * all)));
          return true;
        },
      ),
    );
  });

  it("prorates a mid-month start by visits: Wednesday 2027-03-17, Mondays and Wednesdays", () => {
    const card = { _id: "p", name: "P", visitsPerWeek: 2, price: { amount: 159, unit: "month" as const } };
    const quote = quoteSignUp({
      card,
      dogCount: 1,
      addOns: [],
      settings: { initialCleans: [{ answer: "x", label: "X", amount: 59 }] },
      lastCleaned: "x",
      weekdays: [1, 3],
      startDate: "2027-03-17",
      prorateFirstMonth: true,
    })!;
    // March 2027 has 10 Mondays and Wednesdays; from the 17th on: 17, 22, 24, 29, 31 = 5.
    expect(quote.firstMonth).toEqual({ kind: "prorated_month", amountCents: 7950, visits: 5, of: 10 });
    expect(quote.todayCents).toBe(5900 + 7950);
  });
});

describe("first visit", () => {
  const base = { today: "2027-03-17", sameDayCutoff: "10:00", weekdays: [3, 5], closedDays: new Set<string>() };

  it("offers today before the cut-off, and not at or after it", () => {
    expect(firstVisitCandidates({ ...base, timeNow: "09:59" })[0]).toBe("2027-03-17");
    expect(firstVisitCandidates({ ...base, timeNow: "10:00" })[0]).toBe("2027-03-19");
  });

  it("skips closed days and full days", () => {
    const candidates = firstVisitCandidates({ ...base, timeNow: "08:00", closedDays: new Set(["2027-03-19"]) });
    expect(candidates.slice(0, 3)).toEqual(["2027-03-17", "2027-03-24", "2027-03-26"]);
    const visits = new Map([
      ["2027-03-17", 40],
      ["2027-03-24", 39],
    ]);
    expect(firstOpenDay(candidates, visits, 40)).toBe("2027-03-24");
    expect(firstOpenDay(candidates, new Map([...visits, ["2027-03-24", 40]]), 40)).toBe("2027-03-26");
    expect(firstOpenDay(candidates, new Map(candidates.map((day) => [day, 40])), 40)).toBeNull();
  });
});
