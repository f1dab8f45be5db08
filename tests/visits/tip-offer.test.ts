import { describe, expect, it } from "vitest";
import type { Visit } from "../../db/schema";
import { tipPageUrl, visitCompletedEmail } from "~/features/visits/visit-emails.server";
import { parseTipForm, payPeriodOf, tipPresets } from "~/features/tips/tip-rules";

/** The completion e-mail's tip offer and the tip's rules (docs/decisions/131), without a database. */
const visit = {
  id: "3f1c2b9e-8d4a-4c1e-9b7a-2a6d5e4f3c21",
  service_type: "Weekly Service",
  service_date: new Date("2027-03-04T17:00:00Z"),
  status: "completed",
  health_flags: [],
  health_note: null,
  assigned_to: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
} as unknown as Visit;
const context = { businessName: "Swift Scoop", phone: "(775) 555-0142", siteUrl: "https://yards.example.com" };

describe("the completion e-mail's tip offer", () => {
  it("links each of the owner's amounts and Other to the visit's tip page", () => {
    const mail = visitCompletedEmail(visit, "c@example.com", [], { ...context, tipAmounts: [5, 10, 20] });
    for (const amount of [500, 1000, 2000, "other"] as const) {
      const url = tipPageUrl(visit.id, context.siteUrl, amount);
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(`href="${url}"`);
    }
    expect(tipPageUrl(visit.id, context.siteUrl, 500)).toBe(
      `https://yards.example.com/customer-dashboard/visits/${visit.id}/tip?amount=500`,
    );
    expect(mail.text).toContain("Leave a tip for your technician (all of it goes to them):");
    expect(mail.text).toContain("$10.00: ");
  });

  it("offers nothing without amounts in Sanity, or without a technician on the visit", () => {
    for (const mail of [
      visitCompletedEmail(visit, "c@example.com", [], context),
      visitCompletedEmail(visit, "c@example.com", [], { ...context, tipAmounts: null }),
      visitCompletedEmail({ ...visit, assigned_to: null }, "c@example.com", [], { ...context, tipAmounts: [5] }),
    ]) {
      expect(mail.text).not.toContain("tip");
      expect(mail.html).not.toContain("/tip?");
    }
  });
});

describe("the tip's rules", () => {
  const presets = tipPresets([5, 10, 20, 0, 900]);
  it("keeps presets within $1 to $500", () => expect(presets).toEqual([500, 1000, 2000]));
  it.each([
    ["7", 700],
    ["7.50", 750],
    ["500", 50000],
    ["1", 100],
  ])("Other %j is %i cents", (other, cents) =>
    expect(parseTipForm({ choice: "other", other }, presets)).toEqual({ cents }),
  );
  it.each(["1e3", "12.345", "-5", "0", "0.00", "abc", "500.01", "0.99", " ", "NaN", "Infinity"])(
    "Other %j is refused",
    (other) => expect(parseTipForm({ choice: "other", other }, presets)).toHaveProperty("error"),
  );
  it("a pay period is two weeks from the owner's day, before it too", () => {
    expect(payPeriodOf("2026-01-05", "2026-01-05")).toEqual({ start: "2026-01-05", end: "2026-01-18" });
    expect(payPeriodOf("2026-01-19", "2026-01-05")).toEqual({ start: "2026-01-19", end: "2026-02-01" });
    expect(payPeriodOf("2026-01-04", "2026-01-05")).toEqual({ start: "2025-12-22", end: "2026-01-04" });
  });
});
