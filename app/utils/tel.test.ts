import { describe, expect, it } from "vitest";
import { telHref } from "./tel";

describe("telHref", () => {
  it("gives North American numbers as written by people their +1 form", () => {
    expect(telHref("(702) 555-0100")).toBe("tel:+17025550100");
    expect(telHref("702.555.0100")).toBe("tel:+17025550100");
    expect(telHref("1-702-555-0100")).toBe("tel:+17025550100");
    expect(telHref("+1 702 555 0100")).toBe("tel:+17025550100");
  });

  it("keeps other numbers' digits and a leading plus", () => {
    expect(telHref("+44 20 7946 0000")).toBe("tel:+442079460000");
    expect(telHref("555-0100")).toBe("tel:5550100");
  });
});
