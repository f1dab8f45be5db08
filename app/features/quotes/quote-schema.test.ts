import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { createQuoteSchema, firstInvalidField, phoneDigits, QUOTE_MESSAGES } from "./quote-schema";

const SERVICES = ["weekly", "twice-weekly", "dash", "refresh", "yard-refresh", "commercial"];
const schema = createQuoteSchema(SERVICES);

const good = {
  name: "  Dana   Scoopfan ",
  phone: "+1 (702) 555-0123",
  email: " dana@example.com ",
  address: "123 Desert Rose Ln,\nPahrump NV",
  zip: "89048",
  dogs: "2",
  yardSize: "medium",
  service: "weekly",
  message: "Gate code 1234",
};

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
}

function errorsOf(values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema });
  expect(submission.status).toBe("error");
  return submission.reply().error ?? {};
}

describe("quote schema", () => {
  it("accepts a good request and normalises it", () => {
    const submission = parseWithZod(form(good), { schema });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value).toEqual({
      name: "Dana Scoopfan",
      phone: "(702) 555-0123",
      email: "dana@example.com",
      address: "123 Desert Rose Ln, Pahrump NV",
      zip: "89048",
      dogs: "2",
      yardSize: "medium",
      service: "weekly",
      message: "Gate code 1234",
    });
  });

  it("gives every empty required field its own message, and the message is optional", () => {
    const errors = errorsOf({
      name: "",
      phone: "",
      email: "",
      address: "",
      zip: "",
      dogs: "",
      yardSize: "",
      service: "",
      message: "",
    });
    expect(errors).toEqual({
      name: [QUOTE_MESSAGES.nameRequired],
      phone: [QUOTE_MESSAGES.phoneRequired],
      email: [QUOTE_MESSAGES.emailRequired],
      address: [QUOTE_MESSAGES.addressRequired],
      zip: [QUOTE_MESSAGES.zipRequired],
      dogs: [QUOTE_MESSAGES.dogs],
      yardSize: [QUOTE_MESSAGES.yardSize],
      service: [QUOTE_MESSAGES.serviceRequired],
    });
    expect(firstInvalidField(errors)).toBe("name");
  });

  it.each([
    ["phone", "555-0123", QUOTE_MESSAGES.phoneInvalid],
    ["phone", "702-555-01234", QUOTE_MESSAGES.phoneInvalid],
    ["phone", "2 (702) 555-0123", QUOTE_MESSAGES.phoneInvalid],
    ["phone", "702-CALL-NOW", QUOTE_MESSAGES.phoneInvalid],
    ["email", "dana@", QUOTE_MESSAGES.emailInvalid],
    ["email", "dana example.com", QUOTE_MESSAGES.emailInvalid],
    ["zip", "8904", QUOTE_MESSAGES.zipInvalid],
    ["zip", "ABCDE", QUOTE_MESSAGES.zipInvalid],
    ["dogs", "5", QUOTE_MESSAGES.dogs],
    ["yardSize", "huge", QUOTE_MESSAGES.yardSize],
    ["service", "gold-plated", QUOTE_MESSAGES.serviceUnknown],
    ["service", "<script>", QUOTE_MESSAGES.serviceUnknown],
    ["name", "x".repeat(121), QUOTE_MESSAGES.nameTooLong],
    ["address", "x".repeat(301), QUOTE_MESSAGES.addressTooLong],
    ["message", "x".repeat(5001), QUOTE_MESSAGES.messageTooLong],
  ])("rejects a bad %s (%#) with its message, and only that field", (field, value, message) => {
    const errors = errorsOf({ ...good, [field]: value });
    expect(errors).toEqual({ [field]: [message] });
    expect(firstInvalidField(errors)).toBe(field);
  });

  it("reads phone numbers the way people write them", () => {
    expect(phoneDigits("(702) 555-0123")).toBe("7025550123");
    expect(phoneDigits("702.555.0123")).toBe("7025550123");
    expect(phoneDigits("1-702-555-0123")).toBe("7025550123");
    expect(phoneDigits("+17025550123")).toBe("7025550123");
    expect(phoneDigits("+44 20 7946 0958")).toBeNull();
    expect(phoneDigits("702 555 012")).toBeNull();
  });

  it("keeps ZIP+4 as five digits and drops an empty message", () => {
    const submission = parseWithZod(form({ ...good, zip: "89048-1234", message: "   " }), { schema });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.zip).toBe("89048");
    expect(submission.value.message).toBeUndefined();
  });

  it("without the content's list (a stale page), still checks the shape of the service", () => {
    const loose = parseWithZod(form({ ...good, service: "brand-new-plan" }), { schema: createQuoteSchema() });
    expect(loose.status).toBe("success");
  });

  it("gives the browser the required attributes", () => {
    const constraint = getZodConstraint(schema);
    for (const field of ["name", "phone", "email", "address", "zip", "dogs", "yardSize", "service"]) {
      expect(constraint[field]?.required, field).toBe(true);
    }
    expect(constraint.message?.required).toBeFalsy();
  });
});
