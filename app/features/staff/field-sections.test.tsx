// @vitest-environment jsdom
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { GateCodeReveal } from "./gate-code-reveal";
import { StaffProductivitySection } from "./staff-productivity-section";

// The server-rendered markup of decision 128's pieces, inside a data router as Remix renders them.
async function render(element: ReactElement) {
  const { query, dataRoutes } = createStaticHandler([{ path: "/", element }]);
  const context = await query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const container = document.createElement("div");
  container.innerHTML = renderToString(
    <StaticRouterProvider router={createStaticRouter(dataRoutes, context)} context={context} />,
  );
  return container;
}

describe("Show gate code", () => {
  it("before the press: a plain POST form with its intent, and no code", async () => {
    const page = await render(<GateCodeReveal revealed={null} busy={false} />);
    const form = page.querySelector("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.querySelector<HTMLInputElement>('input[name="intent"]')!.value).toBe("show-gate-code");
    expect(page.querySelector("button")!.textContent).toBe("Show gate code");
    expect(page.querySelector('[role="status"]')).toBeNull();
  });

  it("after it: the code in a status region, no form", async () => {
    const page = await render(<GateCodeReveal revealed="4821#" busy={false} />);
    expect(page.querySelector('[role="status"]')!.textContent).toBe("Gate code: 4821#");
    expect(page.querySelector("form")).toBeNull();
  });
});

describe("the Staff page's Productivity", () => {
  it("a GET day picker and one row per staff member, untimed stops said so", async () => {
    const page = await render(
      <StaffProductivitySection
        productivity={{
          day: "2026-12-03",
          dayLabel: "Thu, Dec 3, 2026",
          problem: null,
          rows: [
            {
              staffId: "t1",
              name: "Tess Technician",
              roleLabel: "Technician",
              stopsDone: 3,
              timedStops: 2,
              minutesOnSite: 35,
              milesPlanned: 6.5,
              skips: [{ label: "Missed: Locked gate", count: 1 }],
            },
          ],
        }}
      />,
    );
    expect(page.querySelector("form")!.getAttribute("method")).toBe("get");
    expect(page.querySelector<HTMLInputElement>('input[name="day"]')!.value).toBe("2026-12-03");
    const cells = [...page.querySelectorAll("tbody tr > *")].map((cell) => cell.textContent);
    expect(cells).toEqual([
      "Tess Technician (Technician)",
      "3",
      "35 (2 of 3 stops timed)",
      "6.5",
      "Missed: Locked gate: 1",
    ]);
    expect(page.querySelector('[role="alert"]')).toBeNull();
  });
});
