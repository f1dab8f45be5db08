import { describe, expect, it } from "vitest";
import { getToast, redirectWithSuccess } from "./toast.server";

const cookieOf = (response: Response) => response.headers.get("Set-Cookie")!.split(";")[0];

describe("flash toasts", () => {
  it("travel in a signed cookie and are read once", async () => {
    const response = await redirectWithSuccess("/", {
      message: "Signed out",
      description: "You've been logged out successfully.",
    });
    const cookie = cookieOf(response);
    const { toast, headers } = await getToast(new Request("http://localhost/", { headers: { Cookie: cookie } }));
    expect(toast).toEqual(expect.objectContaining({ message: "Signed out", type: "success" }));
    // The answer clears the flash, so a reload shows nothing.
    const cleared = headers.get("Set-Cookie")!.split(";")[0];
    const again = await getToast(new Request("http://localhost/", { headers: { Cookie: cleared } }));
    expect(again.toast).toBeUndefined();
  });

  it("ignore a forged or tampered cookie", async () => {
    const response = await redirectWithSuccess("/", "Genuine");
    const [name, value] = cookieOf(response).split("=");
    const payload = decodeURIComponent(value);
    const forgedBody = Buffer.from(JSON.stringify({ flash: { toast: { message: "Forged", type: "error" } } })).toString(
      "base64",
    );
    const forged = `${name}=${encodeURIComponent(forgedBody + payload.slice(payload.lastIndexOf(".")))}`;
    expect((await getToast(new Request("http://localhost/", { headers: { Cookie: forged } }))).toast).toBeUndefined();
    const unsigned = `${name}=${encodeURIComponent(forgedBody)}`;
    expect((await getToast(new Request("http://localhost/", { headers: { Cookie: unsigned } }))).toast).toBeUndefined();
  });

  it("cost public pages nothing when there is no toast", async () => {
    const { toast, headers } = await getToast(new Request("http://localhost/"));
    expect(toast).toBeUndefined();
    expect(headers.get("Set-Cookie")).toBeNull();
  });
});
