// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { AdminVisitHeading } from "./admin-visit-heading";
import type { AdminVisitData } from "./admin-visit-view";

// The top of the admin's visit page as the server renders it (issue 25: a visit made from a plan
// says so; a skipped visit says why).
function render(visit: Partial<AdminVisitData["visit"]>) {
  const full = {
    id: "0b1c6f5e-8d1f-4a57-9a57-2f0e3f1a9c11",
    serviceType: "Weekly Service",
    date: "2031-03-04T16:00:00.000Z",
    dateLabel: "Mar 4, 2031, 8:00 AM",
    status: "scheduled",
    missedReason: null,
    missedNote: null,
    returnVisitOf: null,
    returnVisit: null,
    allowed: ["complete", "miss", "skip", "cancel", "reschedule"],
    skipReason: null,
    plan: null,
    back: { to: "/admin-dashboard/visits", label: "All visits" },
    ...visit,
  } as AdminVisitData["visit"];
  const container = document.createElement("div");
  container.innerHTML = renderToString(
    <StaticRouter location="/admin-dashboard/visits/v1">
      <AdminVisitHeading visit={full} />
    </StaticRouter>,
  );
  return container;
}

const plan = { name: "Weekly Swift Service", href: "/admin-dashboard/customers/c1#plan", followsPlan: true };

describe("the visit page's heading", () => {
  it("names the plan a visit comes from, linked to the plan on the customer's page", () => {
    const page = render({ plan });
    expect(page.textContent).toContain("From plan: Weekly Swift Service");
    expect(page.textContent).toContain("Rescheduling, skipping or cancelling it here takes it off the plan.");
    const link = [...page.querySelectorAll("a")].find((a) => a.textContent === "Weekly Swift Service");
    expect(link?.getAttribute("href")).toBe("/admin-dashboard/customers/c1#plan");
  });

  it("warns of nothing once no change by hand is left (a completed visit)", () => {
    const page = render({ plan, status: "completed", allowed: ["reopen"] });
    expect(page.textContent).toContain("From plan: Weekly Swift Service");
    expect(page.textContent).not.toContain("takes it off the plan");
  });

  it("says a visit changed by hand no longer follows its plan", () => {
    const page = render({ plan: { ...plan, followsPlan: false }, status: "cancelled", allowed: [] });
    expect(page.textContent).toContain(
      "Made from plan Weekly Swift Service, then changed by hand: it no longer follows the plan.",
    );
    expect(page.textContent).not.toContain("From plan:");
  });

  it("says nothing of plans for a visit made by hand, and gives a skipped visit's reason", () => {
    const page = render({ status: "skipped", allowed: [], skipReason: "Paused by customer" });
    expect(page.textContent).not.toMatch(/plan/i);
    expect(page.textContent).toContain("Paused by customer");
  });
});
