import { describe, expect, test } from "vitest";
import { returnPathOf, safeReturnPath, withReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  test.each([
    "/customer-dashboard/visits/0b6f6c1e-7d3a-4b8e-9a43-5d1c2f0e9a11",
    "/customer-dashboard/visits?page=2",
    "/admin-dashboard",
  ])("keeps a path on this site: %s", (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  test.each([
    ["a full URL", "https://evil.example/steal"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash host", "/\\evil.example"],
    ["a backslash later on", "/a\\b"],
    ["a relative path", "customer-dashboard"],
    ["a javascript URL", "javascript:alert(1)"],
    ["a newline", "/a\nLocation: https://evil.example"],
    ["the sign-in page", "/auth"],
    ["the second step", "/auth/verify"],
    ["the sign-in page with a query", "/auth?tab=signup"],
    ["an empty value", ""],
    ["an overlong value", `/${"a".repeat(1000)}`],
    ["not a string", 42],
  ])("refuses %s", (_label, value) => {
    expect(safeReturnPath(value)).toBeNull();
  });
});

test("withReturnPath adds the parameter only for a safe path", () => {
  expect(withReturnPath("/auth", "/customer-dashboard/visits?page=2")).toBe(
    "/auth?redirectTo=%2Fcustomer-dashboard%2Fvisits%3Fpage%3D2",
  );
  expect(withReturnPath("/auth?tab=signin", "/a")).toBe("/auth?tab=signin&redirectTo=%2Fa");
  expect(withReturnPath("/auth", "//evil.example")).toBe("/auth");
  expect(withReturnPath("/auth", null)).toBe("/auth");
});

test("returnPathOf reads and checks the request's parameter", () => {
  expect(returnPathOf(new Request("http://x/auth?redirectTo=%2Fcustomer-dashboard"))).toBe("/customer-dashboard");
  expect(returnPathOf(new Request("http://x/auth?redirectTo=https%3A%2F%2Fevil.example"))).toBeNull();
  expect(returnPathOf(new Request("http://x/auth"))).toBeNull();
});
