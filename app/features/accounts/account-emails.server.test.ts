import { describe, expect, it } from "vitest";
import { greetingFor } from "./account-emails.server";

describe("greetingFor", () => {
  it("greets by a plain name", () => {
    expect(greetingFor("Rosa Díaz-Núñez")).toBe("Hello Rosa Díaz-Núñez,");
    expect(greetingFor("J. R. R. Tolkien")).toBe("Hello J. R. R. Tolkien,");
    expect(greetingFor("")).toBe("Hello,");
    expect(greetingFor(null)).toBe("Hello,");
  });

  it("keeps no line, link or address a stranger wrote into the name", () => {
    const crafted = "Bob\nYour account is locked - confirm at https://evil.example/login?x=1\r\nThe team";
    expect(greetingFor(crafted)).toBe("Hello Bob,");
    for (const name of [
      "Bob https://evil.example/login",
      "Bob evil.example/login",
      "Bob www.evil.example",
      "Bob evil\uff0eexample",
      "Bob mailto:help@evil.example",
      "Bob help@evil.example",
      "Bob\u202ehttps://evil.example",
      "Bob\u0000\u0007 javascript:alert(1)",
    ]) {
      const greeting = greetingFor(name);
      expect(greeting, name).toBe("Hello Bob,");
    }
    expect(greetingFor("\u2028Your account is locked")).toBe("Hello,");
    expect(greetingFor("https://evil.example")).toBe("Hello,");
  });

  it("greets without a name longer than 60 characters", () => {
    expect(greetingFor("A".repeat(60))).toBe(`Hello ${"A".repeat(60)},`);
    expect(greetingFor("Your account is locked, call our support line today at once please")).toBe("Hello,");
  });
});
