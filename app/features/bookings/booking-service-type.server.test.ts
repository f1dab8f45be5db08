import { describe, expect, it } from "vitest";
import { VISIT_TYPES as STUDIO_VISIT_TYPES } from "../../../studio/schemas/lib/visit-types";
import { VISIT_TYPES } from "../visits/visit-constants";
import { eventTypeKey, serviceTypeFor } from "./booking-service-type.server";

const mapping = [
  { eventType: "weekly-cleanup", serviceType: "Weekly Service" },
  { eventType: "Yard Refresh", serviceType: "Yard Refresh" },
];

describe("the event type mapping", () => {
  it("matches slugs and names alike, first key first, else Other", () => {
    expect(eventTypeKey("  Weekly Cleanup! ")).toBe("weekly-cleanup");
    expect(serviceTypeFor(["weekly-cleanup"], mapping)).toBe("Weekly Service");
    expect(serviceTypeFor(["https://api.calendly.com/event_types/X", "Weekly Cleanup"], mapping)).toBe(
      "Weekly Service",
    );
    expect(serviceTypeFor(["yard-refresh"], mapping)).toBe("Yard Refresh");
    expect(serviceTypeFor(["fence-painting"], mapping)).toBe("Other");
    expect(serviceTypeFor([], [])).toBe("Other");
  });

  it("offers the Studio the portal's visit types", () => {
    expect([...STUDIO_VISIT_TYPES]).toEqual([...VISIT_TYPES]);
  });
});
