// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { InvoiceStatusNav } from "./invoice-status-nav";

// The Billing tab's status links as the server renders them (the page has no React in the
// browser, decision 077): the current one is marked for the eye as well as for a screen reader.
const statuses = [
  { value: "open", label: "Open" },
  { value: "paid", label: "Paid" },
  { value: "void", label: "Void" },
];

function links(current: string) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(
    <StaticRouter location="/admin-dashboard/billing">
      <InvoiceStatusNav statuses={statuses} current={current} />
    </StaticRouter>,
  );
  return [...container.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Invoice status"] a')];
}

describe("the Billing tab's status links", () => {
  it("fill and underline the current status, and only it", () => {
    const all = links("paid");
    expect(all.map((a) => a.textContent)).toEqual(["Open", "Paid", "Void"]);
    const [open, paid, voided] = all;
    expect(paid.getAttribute("aria-current")).toBe("page");
    expect(paid.classList).toContain("filter-current");
    expect(paid.classList).toContain("bg-brand-700");
    expect(paid.classList).toContain("underline");
    for (const other of [open, voided]) {
      expect(other.hasAttribute("aria-current")).toBe(false);
      expect(other.classList).not.toContain("filter-current");
      expect(other.classList).not.toContain("bg-brand-700");
      expect(other.classList).not.toContain("underline");
    }
    expect(paid.getAttribute("href")).toBe("/admin-dashboard/billing?status=paid");
  });

  it("an unknown status marks none", () => {
    expect(
      links("nope").filter((a) => a.classList.contains("filter-current") || a.hasAttribute("aria-current")),
    ).toEqual([]);
  });
});
