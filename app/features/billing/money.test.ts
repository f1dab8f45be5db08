import { describe, expect, it } from "vitest";
import { centsToInput, formatCents, parseCents } from "./money";

describe("parseCents", () => {
  it("reads dollars and cents without floats", () => {
    expect(parseCents("12.50")).toBe(1250);
    expect(parseCents("12.5")).toBe(1250);
    expect(parseCents("12")).toBe(1200);
    expect(parseCents(" $7.05 ")).toBe(705);
    expect(parseCents("0.01")).toBe(1);
    expect(parseCents("1,250.00")).toBe(125000);
    expect(parseCents("0.29")).toBe(29);
    expect(parseCents("1000000")).toBe(100_000_000);
  });

  it("refuses a third decimal, signs, exponents, zero, huge amounts and words", () => {
    for (const text of [
      "12.505",
      "-5",
      "+5",
      "1e3",
      "0",
      "0.00",
      "1000000.01",
      "99999999999",
      "",
      "abc",
      "12.",
      ".5",
      "NaN",
      "Infinity",
      "12,50",
      "0x10",
    ]) {
      expect(parseCents(text), text).toBeNull();
    }
  });
});

describe("formatCents", () => {
  it("writes dollars with two decimals, thousands and a minus sign", () => {
    expect(formatCents(1250)).toBe("$12.50");
    expect(formatCents(-2054)).toBe("−$20.54");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
    expect(formatCents(0)).toBe("$0.00");
    expect(centsToInput(705)).toBe("7.05");
  });
});
