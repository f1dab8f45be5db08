import { describe, expect, test } from "vitest";
import { formatBusinessDate, formatBusinessDateTime, parseBusinessDateTime } from "./business-time";

describe("service dates are read in the business's time zone (Pacific)", () => {
  test.each([
    ["2025-07-04T09:30", "2025-07-04T16:30:00.000Z"], // PDT, UTC-7
    ["2025-01-15T09:30", "2025-01-15T17:30:00.000Z"], // PST, UTC-8
    ["2025-12-31T23:45", "2026-01-01T07:45:00.000Z"],
    ["2025-03-09T03:30", "2025-03-09T10:30:00.000Z"], // just after the spring-forward gap
    ["2025-11-02T00:30", "2025-11-02T07:30:00.000Z"], // before fall-back
    ["2025-11-02T03:00", "2025-11-02T11:00:00.000Z"], // after fall-back
    ["2025-07-04T09:30:15", "2025-07-04T16:30:15.000Z"],
    ["2025-03-09T01:59", "2025-03-09T09:59:00.000Z"], // the last minute of PST
    ["2025-03-09T02:30", "2025-03-09T10:30:00.000Z"], // inside the gap: an hour on, 03:30 PDT
    ["2025-11-02T01:30", "2025-11-02T08:30:00.000Z"], // repeated hour: the first, PDT one
  ])("%s", (local, utc) => {
    expect(parseBusinessDateTime(local)?.toISOString()).toBe(utc);
  });

  test.each([
    "",
    "2025-02-30T10:00",
    "2025-13-01T10:00",
    "2025-01-01T24:00",
    "2025-01-01",
    "1999-01-01T10:00",
    "2025-01-01T10:60",
    "tomorrow",
  ])("%j is not a date and time", (value) => {
    expect(parseBusinessDateTime(value)).toBeNull();
  });

  test("formatting shows Pacific wall-clock time", () => {
    expect(formatBusinessDateTime(new Date("2025-07-04T16:30:00Z"))).toBe("Jul 4, 2025, 9:30 AM");
    expect(formatBusinessDate("2025-01-01T07:00:00Z")).toBe("Dec 31, 2024");
  });
});
