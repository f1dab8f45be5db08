import { describe, expect, it } from "vitest";
import { mediaUploadAction, safeAdminBack } from "./upload-back";

describe("the upload form's way back", () => {
  it.each([
    [
      "/admin-dashboard/visits/4f1c6a51-2b7e-4d6f-9a51-2b7e4d6f9a51",
      "/admin-dashboard/visits/4f1c6a51-2b7e-4d6f-9a51-2b7e4d6f9a51",
    ],
    ["/admin-dashboard?tab=upload", "/admin-dashboard?tab=upload"],
  ])("keeps the same-site admin path %s", (value, expected) => {
    expect(safeAdminBack(value)).toBe(expected);
  });

  it.each([
    "https://evil.example/admin-dashboard",
    "//evil.example/admin-dashboard",
    "/\\evil.example",
    "/admin-dashboardx",
    "/customer-dashboard",
    "/admin-dashboard/../customer-dashboard",
    "javascript:alert(1)",
    "",
    null,
    `/admin-dashboard/${"x".repeat(600)}`,
  ])("refuses %s", (value) => {
    expect(safeAdminBack(value)).toBeNull();
  });

  it("puts the way back into the upload route's URL", () => {
    expect(mediaUploadAction("abc", "/admin-dashboard/visits/abc")).toBe(
      "/resources/media-upload?service=abc&back=%2Fadmin-dashboard%2Fvisits%2Fabc",
    );
  });
});
