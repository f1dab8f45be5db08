import { describe, expect, it } from "vitest";
import {
  billingDateOf,
  currentPeriod,
  lastDayOf,
  monthCharge,
  perVisitCents,
  settlementWindow,
  visitTypeSlug,
} from "./billing-rules";

describe("billing periods", () => {
  it("billing day 1 bills the month on its first day; a later day bills the month ahead", () => {
    expect(billingDateOf("2027-03-01", 1)).toBe("2027-03-01");
    expect(billingDateOf("2027-03-01", 25)).toBe("2027-02-25");
    expect(billingDateOf("2027-01-01", 25)).toBe("2026-12-25");
    expect(currentPeriod("2027-03-01", 1)).toBe("2027-03-01");
    expect(currentPeriod("2027-03-31", 1)).toBe("2027-03-01");
    expect(currentPeriod("2027-02-24", 25)).toBe("2027-02-01");
    expect(currentPeriod("2027-02-25", 25)).toBe("2027-03-01");
    expect(currentPeriod("2026-12-28", 25)).toBe("2027-01-01");
  });

  it("an invoice settles the days from the previous billing date to its own", () => {
    expect(settlementWindow("2027-03-01", 1)).toEqual({ from: "2027-02-01", until: "2027-03-01" });
    expect(settlementWindow("2027-03-01", 25)).toEqual({ from: "2027-01-25", until: "2027-02-25" });
    expect(lastDayOf("2027-02-01")).toBe("2027-02-28");
    expect(lastDayOf("2028-02-01")).toBe("2028-02-29");
  });
});

describe("amounts in cents", () => {
  it("a visit is monthly × 12 ÷ 52 ÷ visits a week, rounded half up once", () => {
    expect(perVisitCents(8900, 1)).toBe(2054);
    expect(perVisitCents(15900, 2)).toBe(1835);
    expect(perVisitCents(22500, 3)).toBe(1731);
    expect(perVisitCents(5200, 1)).toBe(1200);
  });

  it("the first month is prorated by the service days left in it", () => {
    // Tuesdays and Thursdays of March 2027: 2 4 9 11 16 18 23 25 30 = 9; from Wednesday the 17th: 18 23 25 30 = 4.
    expect(monthCharge({ weekdays: [2, 4], start_date: "2027-03-17" }, "2027-03-01", 15900, true)).toEqual({
      kind: "prorated_month",
      amountCents: 7067,
      visits: 4,
      of: 9,
    });
    expect(monthCharge({ weekdays: [2, 4], start_date: "2027-03-02" }, "2027-03-01", 15900, true)).toMatchObject({
      kind: "plan_month",
      amountCents: 15900,
    });
    expect(monthCharge({ weekdays: [2], start_date: "2027-03-31" }, "2027-03-01", 8900, true)).toBeNull();
    expect(monthCharge({ weekdays: [2], start_date: "2027-04-01" }, "2027-03-01", 8900, true)).toBeNull();
  });

  it("a visit type names its catalogue slug", () => {
    expect(visitTypeSlug("Sanitize & Deodorize")).toBe("sanitize-deodorize");
    expect(visitTypeSlug("Desert Dash")).toBe("desert-dash");
  });
});
