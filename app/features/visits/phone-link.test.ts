import { describe, expect, it } from "vitest";
import { phoneLink } from "./phone-link";

describe("phoneLink", () => {
  it("dials a yard's E.164 mobile and reads it the US way", () => {
    expect(phoneLink("+17025550123")).toEqual({ href: "tel:+17025550123", label: "(702) 555-0123" });
  });

  it("dials a number typed on a quote", () => {
    expect(phoneLink("(702) 555-0199")).toEqual({ href: "tel:+17025550199", label: "(702) 555-0199" });
  });

  it("keeps a foreign number's digits and shows it as written", () => {
    expect(phoneLink("+44 20 7946 0958")).toEqual({ href: "tel:+442079460958", label: "+44 20 7946 0958" });
  });

  it("shows nothing without a number", () => {
    expect(phoneLink(null)).toBeNull();
    expect(phoneLink(undefined)).toBeNull();
    expect(phoneLink("   ")).toBeNull();
    expect(phoneLink("none")).toBeNull();
  });
});
