// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { FailedPaymentsList, PaymentProblemNotice } from "./failed-payments";
import type { FailedPayments, PaymentNotice } from "./failed-payments.server";

// Failed payments as the server renders them (docs/decisions/104): the admin's list and the
// customer's notice.
function render(element: JSX.Element) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(<StaticRouter location="/">{element}</StaticRouter>);
  return container;
}

const item: FailedPayments["items"][number] = {
  id: "0b1c6f5e-8d1f-4a57-9a57-2f0e3f1a9c11",
  number: "2027-000123",
  customer: "Casey Customer",
  customerId: "1c2d3e4f-8d1f-4a57-9a57-2f0e3f1a9c11",
  balance: "$89.00",
  reason: "Your card was declined.",
  failed: "Mar 1, 2027",
  attempts: 2,
  nextRetry: null,
  pausedSince: "Mar 8, 2027",
};

describe("the admin's Failed payments list", () => {
  it("shows each failed invoice with its customer, reason, attempts, next retry and pause", () => {
    const page = render(<FailedPaymentsList failed={{ more: false, items: [item] }} />);
    expect(page.querySelector("h3")?.textContent).toBe("Failed payments");
    const headers = [...page.querySelectorAll("th")].map((th) => th.textContent);
    expect(headers).toEqual(["Invoice", "Customer", "Reason", "Attempts", "Next retry", "Service paused"]);
    const cells = [...page.querySelectorAll("tbody td")].map((td) => td.textContent);
    expect(cells).toEqual([
      "2027-000123$89.00 owed",
      "Casey Customer",
      "Your card was declined.Mar 1, 2027",
      "2",
      "No more retries",
      "Paused since Mar 8, 2027",
    ]);
    expect(page.querySelector("a")?.getAttribute("href")).toBe(`/admin-dashboard/billing/${item.id}`);
  });

  it("says when there is none", () => {
    const page = render(<FailedPaymentsList failed={{ more: false, items: [] }} />);
    expect(page.textContent).toContain("No failed payments.");
    expect(page.querySelector("table")).toBeNull();
  });
});

describe("the customer's notice", () => {
  const failed: PaymentNotice[number] = {
    id: item.id,
    number: "2027-000123",
    balance: "$89.00",
    reason: "Your card has insufficient funds.",
    nextRetry: "Mar 4, 2027",
    paused: false,
  };

  it("gives the reason, the next try and the Update card link", () => {
    const page = render(<PaymentProblemNotice notice={[failed]} />);
    expect(page.querySelector("h2")?.textContent).toBe("Your payment didn't go through");
    expect(page.textContent).toContain(
      "We couldn't take the payment for invoice 2027-000123 ($89.00). The reason given: Your card has insufficient funds. We'll try your card again on Mar 4, 2027.",
    );
    const link = page.querySelector("a");
    expect(link?.textContent).toBe("Update card");
    expect(link?.getAttribute("href")).toBe("/customer-dashboard/billing#card-heading");
  });

  it("says when service is paused for payment, and shows nothing when all is well", () => {
    const page = render(<PaymentProblemNotice notice={[{ ...failed, paused: true }]} />);
    expect(page.querySelector("h2")?.textContent).toBe("Your service is paused");
    expect(page.textContent).toContain("your visits are skipped until it is paid");
    expect(render(<PaymentProblemNotice notice={[]} />).innerHTML).toBe("");
  });
});
