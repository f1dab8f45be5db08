import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { QuoteHoneypot } from "./quote-honeypot";
import { isHoneypotSpam } from "./quote-honeypot.server";

function form(entries: [string, string | Blob][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("the quote form's honeypot", () => {
  test("an empty or missing field is a person's post", () => {
    expect(
      isHoneypotSpam(
        form([
          ["website", ""],
          ["name", "Ann"],
        ]),
      ),
    ).toBe(false);
    expect(isHoneypotSpam(form([["name", "Ann"]]))).toBe(false);
  });

  test("a filled field is a bot's post, whatever it holds", () => {
    expect(isHoneypotSpam(form([["website", "http://spam.example"]]))).toBe(true);
    expect(isHoneypotSpam(form([["website", " "]]))).toBe(true);
    expect(isHoneypotSpam(form([["website", new Blob(["x"])]]))).toBe(true);
  });

  test("is valid HTML hidden from people and assistive technology", () => {
    const html = renderToStaticMarkup(<QuoteHoneypot />);
    expect(html).toMatch(/^<div hidden="" aria-hidden="true">/);
    // HTML attribute names are case-insensitive; React 18 writes "autoComplete".
    expect(html).toMatch(
      /<input id="website" name="website" type="text" autocomplete="off" tabindex="-1" value=""\/>/i,
    );
    expect(html).not.toContain("nope");
  });
});
