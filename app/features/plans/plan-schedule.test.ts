import { describe, expect, it } from "vitest";
import {
  canChangeVisit,
  describeWeekdays,
  isoWeekday,
  plannedVisits,
  planVisitType,
  scheduleRules,
  serviceDayFor,
  slotDays,
  visitStartsAt,
  type PlanCalendar,
} from "./plan-schedule";

const active: PlanCalendar = {
  weekdays: [2, 4],
  start_date: "2026-11-01",
  status: "active",
  paused_from: null,
  paused_until: null,
  last_visit_date: null,
};
const thanksgiving = scheduleRules({ firstVisitTime: "08:00", closedDays: [{ date: "2026-11-26" }] });

describe("the plan calendar", () => {
  it("knows the weekdays and names them as people do", () => {
    expect(isoWeekday("2026-11-23")).toBe(1);
    expect(isoWeekday("2026-11-29")).toBe(7);
    expect(describeWeekdays([4, 2])).toBe("Tuesday and Thursday");
    expect(describeWeekdays([1, 3, 5])).toBe("Monday, Wednesday and Friday");
    expect(planVisitType(1)).toBe("Weekly Service");
    expect(planVisitType(3)).toBe("Thrice Weekly Service");
  });

  it("lists a plan's slots between two days, both included", () => {
    expect(slotDays([2, 4], "2026-11-24", "2026-12-01")).toEqual(["2026-11-24", "2026-11-26", "2026-12-01"]);
  });

  it("moves a closed day's visit to the next weekday that is not closed, over a weekend too", () => {
    expect(serviceDayFor("2026-11-26", thanksgiving.closed)).toBe("2026-11-27");
    const closedFriday = new Set(["2026-11-26", "2026-11-27"]);
    expect(serviceDayFor("2026-11-26", closedFriday)).toBe("2026-11-30");
    expect(serviceDayFor("2026-11-25", closedFriday)).toBe("2026-11-25");
  });

  it("makes no visit when nothing within a month is open", () => {
    const closed = new Set(
      Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 10, 26 + i)).toISOString().slice(0, 10)),
    );
    expect(serviceDayFor("2026-11-26", closed)).toBeNull();
  });

  it("starts visits at the first visit time in Las Vegas, winter and summer", () => {
    expect(visitStartsAt("2026-11-24", "08:00").toISOString()).toBe("2026-11-24T16:00:00.000Z");
    expect(visitStartsAt("2027-07-06", "08:00").toISOString()).toBe("2027-07-06T15:00:00.000Z");
  });

  it("keeps the slot of a moved visit, so the slot is never made twice", () => {
    const visits = plannedVisits(active, thanksgiving, "2026-11-23", "2026-11-29");
    expect(visits.map((v) => [v.slot, v.day])).toEqual([
      ["2026-11-24", "2026-11-24"],
      ["2026-11-26", "2026-11-27"],
    ]);
  });

  it("starts on the start date, marks the pause, and stops after the last visit", () => {
    const late = { ...active, start_date: "2026-11-26" };
    expect(plannedVisits(late, thanksgiving, "2026-11-23", "2026-11-29").map((v) => v.slot)).toEqual(["2026-11-26"]);
    const paused = { ...active, status: "paused" as const, paused_from: "2026-11-25", paused_until: "2026-12-01" };
    expect(plannedVisits(paused, thanksgiving, "2026-11-23", "2026-12-03").map((v) => [v.day, v.paused])).toEqual([
      ["2026-11-24", false],
      ["2026-11-27", true],
      ["2026-12-01", true],
      ["2026-12-03", false],
    ]);
    const cancelled = { ...active, status: "cancelled" as const, last_visit_date: "2026-11-24" };
    expect(plannedVisits(cancelled, thanksgiving, "2026-11-23", "2026-12-03").map((v) => v.day)).toEqual([
      "2026-11-24",
    ]);
  });

  it("allows a change until the notice before the visit, not after", () => {
    const start = new Date("2026-11-24T16:00:00Z");
    expect(canChangeVisit(start, new Date("2026-11-23T16:00:00Z"), 24)).toBe(true);
    expect(canChangeVisit(start, new Date("2026-11-23T16:00:01Z"), 24)).toBe(false);
  });
});
