import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { goodQuote, quotePost, randomClientIp } from "../../../tests/helpers/quote-form";
import { action, loader } from "~/routes/contact";
import { getSiteSettings } from "~/content/content.server";
import { resetEnvCache } from "~/utils/env.server";
import { getToast } from "~/utils/toast.server";
import { QUOTE_MESSAGES } from "./quote-schema";
import { getQuoteConfirmation, QUOTE_RATE_LIMIT } from "./quote-submission.server";
import { readQuoteSentToken } from "./quote-token.server";

const database = useAppDatabase();

/** Posts to the /contact route's action, as the browser does. */
const post = (request: Request) => action({ request, params: {}, context: {} });

async function storedQuotes() {
  return database.current.db.selectFrom("quote_requests").selectAll().orderBy("created_at").execute();
}

/** The e-mails queued: a refused request must queue none. */
async function queuedEmails() {
  return database.current.db.selectFrom("outbox").selectAll().orderBy("created_at").orderBy("kind").execute();
}

function sentIdFrom(response: Response): string | null {
  const location = response.headers.get("Location") ?? "";
  return readQuoteSentToken(new URL(location, "http://localhost").searchParams.get("sent"));
}

async function errorsOf(response: Response) {
  const data = (await response.json()) as {
    lastResult: { error?: Record<string, string[]>; initialValue?: Record<string, string> };
    focus?: string;
  };
  return data;
}

beforeEach(async () => {
  // No SMTP here: the e-mails are stored 'skipped' (quote-notifications.server.test.ts starts a real server).
  delete process.env.SMTP_URL;
  resetEnvCache();
  await database.current.db.deleteFrom("quote_requests").execute();
  await database.current.db.deleteFrom("outbox").execute();
});

afterEach(() => resetEnvCache());

describe.each([
  { mode: "JavaScript off (plain form post)", js: false },
  { mode: "JavaScript on (Remix fetch post)", js: true },
])("the quote action, $mode", ({ js }) => {
  it.each([
    ["name", "", QUOTE_MESSAGES.nameRequired],
    ["phone", "555-01", QUOTE_MESSAGES.phoneInvalid],
    ["email", "dana-at-example.com", QUOTE_MESSAGES.emailInvalid],
    ["address", "  ", QUOTE_MESSAGES.addressRequired],
    ["zip", "890", QUOTE_MESSAGES.zipInvalid],
    ["dogs", "", QUOTE_MESSAGES.dogs],
    ["yardSize", "enormous", QUOTE_MESSAGES.yardSize],
    ["service", "platinum", QUOTE_MESSAGES.serviceUnknown],
    ["message", "x".repeat(5001), QUOTE_MESSAGES.messageTooLong],
  ])("a bad %s gets its own message, keeps the values and stores nothing", async (field, value, message) => {
    const values = goodQuote({ [field]: value });
    const response = await post(quotePost(values, { js }));
    expect(response.status).toBe(400);
    const data = await errorsOf(response);
    expect(data.lastResult.error).toEqual({ [field]: [message] });
    expect(data.focus).toBe(field);
    // What the visitor typed comes back to be shown again.
    const kept = field === "email" ? "phone" : "email";
    expect(data.lastResult.initialValue?.[kept]).toBe(values[kept]);
    expect(data.lastResult.initialValue?.address).toBe(values.address);
    expect(await storedQuotes()).toHaveLength(0);
    expect(await queuedEmails()).toHaveLength(0);
  });

  it("stores a good request once, even when it is posted twice", async () => {
    const values = goodQuote();
    const ip = randomClientIp();
    const first = await post(quotePost(values, { js, ip }));
    const second = await post(quotePost({ ...values, name: " dana  SCOOPFAN " }, { js, ip }));
    for (const response of [first, second]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/contact\?sent=.+#quote-sent-heading$/);
      expect(response.headers.get("Set-Cookie")).toContain("toast-session=");
    }
    const rows = await storedQuotes();
    expect(rows).toHaveLength(1);
    const cookie = (first.headers.get("Set-Cookie") ?? "").split(";")[0];
    const { toast } = await getToast(new Request("http://localhost/contact", { headers: { Cookie: cookie } }));
    expect(toast).toMatchObject({
      type: "success",
      message: "Quote request sent",
      description: `We'll get back to you within our business hours: ${(await getSiteSettings()).hours.display}.`,
    });
    // Both posts lead to the same success screen.
    expect(sentIdFrom(first)).toBe(rows[0].id);
    expect(sentIdFrom(second)).toBe(rows[0].id);
    expect(rows[0]).toMatchObject({
      name: "Dana Scoopfan",
      phone: "(702) 555-0123",
      email: values.email,
      address: "123 Desert Rose Ln, Pahrump NV",
      zip: "89048",
      dogs: "2",
      yard_size: "medium",
      service: "weekly",
      message: "The gate code is 1234.",
      status: "new",
      outside_service_area: false,
    });
    // Its two e-mails are stored once, 'skipped' without SMTP_URL, and about this request.
    const emails = await queuedEmails();
    expect(emails.map((e) => [e.kind, e.status, e.related_id])).toEqual([
      ["quote_owner", "skipped", rows[0].id],
      ["quote_visitor", "skipped", rows[0].id],
    ]);
  });
});

describe("the quote action's defences", () => {
  it("gives a bot that fills the honeypot the success screen and stores nothing", async () => {
    const response = await post(quotePost(goodQuote({ website: "http://spam.example" })));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/contact\?sent=/);
    expect(await storedQuotes()).toHaveLength(0);
    expect(await queuedEmails()).toHaveLength(0);
    // Its success screen has nothing to show.
    const confirmation = await getQuoteConfirmation(new Request(`http://localhost${response.headers.get("Location")}`));
    expect(confirmation?.details).toBeNull();
  });

  it(`stops a client after ${QUOTE_RATE_LIMIT.limit} requests with a clear message and 429, other clients unaffected`, async () => {
    const ip = randomClientIp();
    for (let i = 0; i < QUOTE_RATE_LIMIT.limit; i++) {
      const response = await post(quotePost(goodQuote({ name: `Person ${i}` }), { ip }));
      expect(response.status).toBe(302);
    }
    const limited = await post(quotePost(goodQuote({ name: "One Too Many" }), { ip }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    const data = await errorsOf(limited);
    expect(data.lastResult.error?.[""]?.[0]).toMatch(
      /several requests in a short time.*call us at \(\d{3}\) \d{3}-\d{4}/,
    );
    expect(data.lastResult.initialValue?.name).toBe("One Too Many");
    expect(await storedQuotes()).toHaveLength(QUOTE_RATE_LIMIT.limit);
    // One owner e-mail per stored request and nothing for the refused one.
    expect((await queuedEmails()).filter((e) => e.kind === "quote_owner")).toHaveLength(QUOTE_RATE_LIMIT.limit);
    expect((await queuedEmails()).some((e) => e.subject.includes("One Too Many"))).toBe(false);

    const other = await post(quotePost(goodQuote({ name: "Someone Else" }), { ip: randomClientIp() }));
    expect(other.status).toBe(302);
  });

  it("keys the limit on Fly-Client-IP on Fly", async () => {
    vi.stubEnv("FLY_APP_NAME", "swift-scoop");
    const flyIp = randomClientIp();
    for (let i = 0; i < QUOTE_RATE_LIMIT.limit; i++) {
      const request = quotePost(goodQuote({ name: `Fly ${i}` }));
      request.headers.set("Fly-Client-IP", flyIp);
      expect((await post(request)).status).toBe(302);
    }
    // A different X-Forwarded-For does not help: Fly's header wins.
    const request = quotePost(goodQuote({ name: "Fly again" }), { ip: randomClientIp() });
    request.headers.set("Fly-Client-IP", flyIp);
    expect((await post(request)).status).toBe(429);
    vi.unstubAllEnvs();
  });

  it("answers a body it cannot read with 400, not 500", async () => {
    const request = new Request("http://localhost/contact", {
      method: "POST",
      body: "--nonsense",
      headers: { "Content-Type": "multipart/form-data; boundary=xyz" },
    });
    const response = await post(request);
    expect(response.status).toBe(400);
    expect(await storedQuotes()).toHaveLength(0);
    expect(await queuedEmails()).toHaveLength(0);
  });
});

describe("service area and estimate", () => {
  it("stores a request from outside the served ZIP codes, flagged, and tells the visitor honestly", async () => {
    const response = await post(quotePost(goodQuote({ zip: "90210" })));
    expect(response.status).toBe(302);
    const [row] = await storedQuotes();
    expect(row.outside_service_area).toBe(true);
    const confirmation = await getQuoteConfirmation(new Request(`http://localhost${response.headers.get("Location")}`));
    expect(confirmation?.details?.outsideArea).toMatch(/90210 may be outside our service area/);
    expect(confirmation?.nextSteps).toMatch(/^We'll get back to you within our business hours: Monday/);
  });

  it("stores the estimate and shows it, without contact details, on the success screen", async () => {
    const response = await post(quotePost(goodQuote({ dogs: "3", service: "twice-weekly" })));
    const [row] = await storedQuotes();
    expect(row.estimate_label).toMatch(/^\$\d+\/month$/);
    expect(row.estimate_cents).toBeGreaterThan(0);
    const confirmation = await getQuoteConfirmation(new Request(`http://localhost${response.headers.get("Location")}`));
    expect(confirmation?.details).toMatchObject({ estimateLabel: row.estimate_label, dogs: "3 dogs" });
    expect(JSON.stringify(confirmation)).not.toContain(row.email);
    expect(JSON.stringify(confirmation)).not.toContain(row.phone);
  });

  it("the /contact page shows the success screen, privately, only at the redirect's URL", async () => {
    const response = await post(quotePost(goodQuote({ dogs: "1", service: "weekly" })));
    const location = response.headers.get("Location") ?? "";
    const page = await loader({ request: new Request(`http://localhost${location}`), params: {}, context: {} });
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await page.json();
    expect(data.sent?.details).toMatchObject({ serviceLabel: "Weekly Swift Service", dogs: "1 dog" });
    expect(data.sent?.details?.estimateLabel).toMatch(/^\$\d+\/month$/);

    const plain = await loader({ request: new Request("http://localhost/contact"), params: {}, context: {} });
    expect((await plain.json()).sent).toBeNull();
    expect(plain.headers.get("Cache-Control")).toMatch(/^public/);
  });

  it("shows no success screen for a forged or tampered token", async () => {
    const response = await post(quotePost(goodQuote()));
    const location = response.headers.get("Location") ?? "";
    const [row] = await storedQuotes();
    const tampered = location.replace(row.id, "00000000-0000-4000-8000-000000000000");
    expect(await getQuoteConfirmation(new Request(`http://localhost${tampered}`))).toBeNull();
    expect(await getQuoteConfirmation(new Request(`http://localhost/contact?sent=${row.id}`))).toBeNull();
  });
});
