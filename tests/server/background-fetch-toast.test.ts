// A page the staff app's service worker fetches in the background (decision 127) leaves the
// flash toast for the page being opened: it neither reads nor clears it.
import { describe, expect, it } from "vitest";
import { BACKGROUND_FETCH_HEADER } from "~/utils/background-fetch";
import { getToast, redirectWithSuccess } from "~/utils/toast.server";

async function flashCookie() {
  const response = await redirectWithSuccess("/admin-dashboard/visits/today", {
    message: "Success",
    description: "Order saved",
  });
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("the flash toast and the staff app's background fetches", () => {
  it("a background fetch gets no toast and clears nothing; the page opened next gets it", async () => {
    const cookie = await flashCookie();
    const background = await getToast(
      new Request("http://localhost/admin-dashboard/visits/x", {
        headers: { Cookie: cookie, [BACKGROUND_FETCH_HEADER]: "1" },
      }),
    );
    expect(background.toast).toBeUndefined();
    expect([...background.headers.keys()]).toEqual([]);
    const page = await getToast(
      new Request("http://localhost/admin-dashboard/visits/today", { headers: { Cookie: cookie } }),
    );
    expect(page.toast).toMatchObject({ message: "Success", description: "Order saved" });
    // The page's read clears it (the other side: a toast shows once).
    expect(page.headers.get("Set-Cookie")).toContain("toast-session=");
  });
});
