import { randomBytes } from "node:crypto";

/** A quote request a person would send: inside the service area, two dogs, weekly service. */
export function goodQuote(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: "Dana Scoopfan",
    phone: "(702) 555-0123",
    email: `dana-${randomBytes(3).toString("hex")}@example.com`,
    address: "123 Desert Rose Ln, Pahrump NV",
    zip: "89048",
    dogs: "2",
    yardSize: "medium",
    service: "weekly",
    message: "The gate code is 1234.",
    website: "",
    ...overrides,
  };
}

/** A distinct client address, so that each test has its own rate-limit window. */
export function randomClientIp(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

/**
 * The POST the browser sends to /contact: a urlencoded form, exactly what a plain form post
 * (JavaScript off) and Remix's fetch submission (JavaScript on, with Conform) both carry.
 */
export function quotePost(values: Record<string, string>, options: { ip?: string; js?: boolean } = {}): Request {
  const body = new URLSearchParams(values);
  // With JavaScript, Remix posts the same body to the route's data URL.
  const url = options.js ? "http://localhost/contact?_data=routes%2Fcontact" : "http://localhost/contact";
  return new Request(url, {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Forwarded-For": options.ip ?? randomClientIp(),
    },
  });
}
