import { describe, expect, it } from "vitest";
import { createCustomerReference, readCustomerReference } from "./customer-reference.server";
import { bookingCalendarLink, calendarProviderOf } from "./booking-calendar.server";

const customerId = "3f2b8c4e-1d2a-4b5c-9e6f-7a8b9c0d1e2f";

describe("the signed customer reference", () => {
  it("reads back the customer id until it expires", () => {
    const now = Date.now();
    const token = createCustomerReference(customerId, now);
    expect(readCustomerReference(token, now)).toBe(customerId);
    expect(readCustomerReference(token, now + 6 * 24 * 3600 * 1000)).toBe(customerId);
    expect(readCustomerReference(token, now + 8 * 24 * 3600 * 1000)).toBeNull();
  });

  it("refuses a changed id, a changed expiry, a foreign signature and junk", () => {
    const token = createCustomerReference(customerId);
    const [, expires, signature] = token.split(".");
    expect(readCustomerReference(`4f2b8c4e-1d2a-4b5c-9e6f-7a8b9c0d1e2f.${expires}.${signature}`)).toBeNull();
    expect(readCustomerReference(`${customerId}.zzzzzz.${signature}`)).toBeNull();
    expect(readCustomerReference(`${customerId}.${expires}.${"A".repeat(32)}`)).toBeNull();
    for (const junk of [undefined, null, 42, "", "a.b", "a.b.c.d", "x".repeat(500)]) {
      expect(readCustomerReference(junk)).toBeNull();
    }
  });
});

describe("the calendar link", () => {
  const customer = { id: customerId, name: "Pat Example", email: "pat@example.com" };

  it("carries the reference where each calendar hands it back", () => {
    const cal = new URL(bookingCalendarLink("https://cal.com/swift-scoop/weekly-cleanup", customer));
    expect(readCustomerReference(cal.searchParams.get("metadata[customer]"))).toBe(customerId);
    expect(cal.searchParams.has("utm_content")).toBe(false);
    expect(cal.searchParams.get("email")).toBe("pat@example.com");

    const calendly = new URL(bookingCalendarLink("https://calendly.com/swift-scoop/service-visit", customer));
    expect(readCustomerReference(calendly.searchParams.get("utm_content"))).toBe(customerId);
    expect(calendly.searchParams.has("metadata[customer]")).toBe(false);
    expect(calendly.searchParams.get("name")).toBe("Pat Example");

    const own = new URL(bookingCalendarLink("https://book.example.com/weekly", customer));
    expect(own.searchParams.has("utm_content") && own.searchParams.has("metadata[customer]")).toBe(true);
  });

  it("tells the calendars apart by host", () => {
    expect(calendarProviderOf("https://app.cal.com/x")).toBe("cal_com");
    expect(calendarProviderOf("https://calendly.com/x")).toBe("calendly");
    expect(calendarProviderOf("https://notcalendly.com/x")).toBe("unknown");
  });
});
