import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { goodQuote } from "../helpers/quote-form";
import { createQuoteRequest } from "~/models/quote-request.server";
import { queueQuoteEmails, quoteEmailContext } from "~/features/quotes/quote-notifications.server";
import { resetEnvCache } from "~/utils/env.server";
import { createQuoteSchema } from "~/features/quotes/quote-schema";
import { getToast } from "~/utils/toast.server";
import { action as detailAction, loader as detailLoader } from "~/routes/admin-dashboard.quotes.$quoteId";
import { loader as listLoader } from "~/routes/admin-dashboard.quotes";

const database = useAppDatabase();
let adminCookie: string;
let customerCookie: string;

const MISSING_ID = "00000000-0000-4000-8000-000000000000";

async function storeQuote(
  overrides: Record<string, string>,
  options: { outside?: boolean; minutesAgo?: number; emails?: boolean } = {},
) {
  const input = createQuoteSchema().parse(goodQuote(overrides));
  const context = await quoteEmailContext(input.service);
  const { quote } = await createQuoteRequest(
    {
      ...input,
      outsideServiceArea: options.outside ?? false,
      estimateCents: 10400,
      estimateLabel: "$104/month",
      clientKey: null,
    },
    // As the contact action does: the e-mails queued in the request's transaction.
    options.emails ? (trx, stored) => queueQuoteEmails(trx, stored, context) : undefined,
  );
  if (options.minutesAgo) {
    await database.current.db
      .updateTable("quote_requests")
      .set({ created_at: new Date(Date.now() - options.minutesAgo * 60_000) } as never)
      .where("id", "=", quote.id)
      .execute();
  }
  return quote;
}

function get(path: string, cookie?: string) {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

function post(path: string, values: Record<string, string>, cookie?: string) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body: new URLSearchParams(values),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** Runs a loader or action and returns the Response, whether it was returned or thrown. */
async function settle(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    throw new Error("expected a Response");
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

beforeAll(async () => {
  const admin = await createUser(database.current.db, { admin: true });
  const customer = await createUser(database.current.db);
  adminCookie = await sessionCookieFor(admin.id);
  customerCookie = await sessionCookieFor(customer.id);
});

beforeEach(async () => {
  // No SMTP: queued e-mails are stored 'skipped'.
  delete process.env.SMTP_URL;
  resetEnvCache();
  await database.current.db.deleteFrom("quote_requests").execute();
  await database.current.db.deleteFrom("outbox").execute();
});

describe("quote inbox authorization", () => {
  it("sends the anonymous to /auth and customers to their dashboard with Access Denied, for every loader and action", async () => {
    const quote = await storeQuote({});
    const calls = (cookie?: string) => [
      () => listLoader({ request: get("/admin-dashboard/quotes", cookie), params: {}, context: {} }),
      () =>
        detailLoader({
          request: get(`/admin-dashboard/quotes/${quote.id}`, cookie),
          params: { quoteId: quote.id },
          context: {},
        }),
      () =>
        detailAction({
          request: post(`/admin-dashboard/quotes/${quote.id}`, { status: "won" }, cookie),
          params: { quoteId: quote.id },
          context: {},
        }),
    ];
    for (const call of calls()) {
      const response = await settle(call);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);
    }
    for (const call of calls(customerCookie)) {
      const response = await settle(call);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/customer-dashboard");
      const cookie = (response.headers.get("Set-Cookie") ?? "").split(";")[0];
      const { toast } = await getToast(
        new Request("http://localhost/customer-dashboard", { headers: { Cookie: cookie } }),
      );
      expect(toast).toMatchObject({
        type: "error",
        message: "Access Denied",
        description: "You don't have admin privileges",
      });
    }
    const row = await database.current.db.selectFrom("quote_requests").select("status").executeTakeFirstOrThrow();
    expect(row.status).toBe("new");
  });
});

describe("quote inbox list", () => {
  it("lists newest first with the fields the owner scans, and flags requests outside the area", async () => {
    await storeQuote({ name: "Oldest Owner" }, { minutesAgo: 30 });
    await storeQuote({ name: "Far Away", zip: "90210", dogs: "4+" }, { outside: true, minutesAgo: 20 });
    await storeQuote({ name: "Newest Owner", service: "dash" }, { minutesAgo: 10 });
    const response = await settle(() =>
      listLoader({ request: get("/admin-dashboard/quotes", adminCookie), params: {}, context: {} }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const data = await response.json();
    expect(data.quotes.map((q: { name: string }) => q.name)).toEqual(["Newest Owner", "Far Away", "Oldest Owner"]);
    expect(data.quotes[1]).toMatchObject({
      zip: "90210",
      outsideServiceArea: true,
      dogs: "4 or more dogs",
      status: "new",
    });
    expect(data.quotes[0].service).toBe("Swift Dash (one-time cleanup)");
    expect(data.counts).toEqual({ all: 3, byStatus: { new: 3, contacted: 0, won: 0, lost: 0 } });
  });

  it("filters by status, and says so when the status does not exist", async () => {
    const a = await storeQuote({ name: "Alpha" });
    await storeQuote({ name: "Bravo" });
    await detailAction({
      request: post(`/admin-dashboard/quotes/${a.id}`, { status: "contacted" }, adminCookie),
      params: { quoteId: a.id },
      context: {},
    });

    const contacted = await (
      await settle(() =>
        listLoader({ request: get("/admin-dashboard/quotes?status=contacted", adminCookie), params: {}, context: {} }),
      )
    ).json();
    expect(contacted.quotes.map((q: { name: string }) => q.name)).toEqual(["Alpha"]);
    expect(contacted.status).toBe("contacted");

    const fresh = await (
      await settle(() =>
        listLoader({ request: get("/admin-dashboard/quotes?status=new", adminCookie), params: {}, context: {} }),
      )
    ).json();
    expect(fresh.quotes.map((q: { name: string }) => q.name)).toEqual(["Bravo"]);

    const bad = await settle(() =>
      listLoader({ request: get("/admin-dashboard/quotes?status=maybe", adminCookie), params: {}, context: {} }),
    );
    expect(bad.status).toBe(400);
    const badData = await bad.json();
    expect(badData.invalidStatus).toBe('There is no status "maybe". Showing all quote requests.');
    expect(badData.quotes).toHaveLength(2);
  });

  it("pages through many requests 25 at a time, by keyset (no page numbers)", async () => {
    for (let i = 0; i < 27; i++) await storeQuote({ name: `Person ${i}` }, { minutesAgo: 100 - i });
    const first = await (
      await settle(() => listLoader({ request: get("/admin-dashboard/quotes", adminCookie), params: {}, context: {} }))
    ).json();
    expect(first.quotes).toHaveLength(25);
    expect(first).toMatchObject({ newer: null, atNewest: true, atOldest: false, pageGone: false });
    expect(first.quotes[0].name).toBe("Person 26");
    const older = await (
      await settle(() =>
        listLoader({
          request: get(`/admin-dashboard/quotes?older=${first.older}`, adminCookie),
          params: {},
          context: {},
        }),
      )
    ).json();
    expect(older.quotes.map((q: { name: string }) => q.name)).toEqual(["Person 1", "Person 0"]);
    expect(older).toMatchObject({ older: null, atOldest: true, atNewest: false });
    const oldest = await (
      await settle(() =>
        listLoader({ request: get("/admin-dashboard/quotes?oldest=1", adminCookie), params: {}, context: {} }),
      )
    ).json();
    // The last page is the oldest 25, newest first, and has a way back to newer ones.
    expect(oldest.quotes).toHaveLength(25);
    expect(oldest.quotes.at(-1).name).toBe("Person 0");
    expect(oldest.quotes[0].name).toBe("Person 24");
    expect(oldest).toMatchObject({ older: null, atOldest: true, atNewest: false });
    const newer = await (
      await settle(() =>
        listLoader({
          request: get(`/admin-dashboard/quotes?newer=${oldest.newer}`, adminCookie),
          params: {},
          context: {},
        }),
      )
    ).json();
    expect(newer.quotes.map((q: { name: string }) => q.name)).toEqual(["Person 26", "Person 25"]);
    expect(newer).toMatchObject({ newer: null, atNewest: true });
  });

  it("walks every request once in both directions, also when many share a timestamp", async () => {
    const stored: string[] = [];
    for (let i = 0; i < 60; i++) stored.push((await storeQuote({ name: `Same ${i}` })).id);
    // Three groups of twenty with one identical created_at each: only the id orders them.
    for (const [group, minutesAgo] of [
      [0, 30],
      [1, 20],
      [2, 10],
    ] as const) {
      await database.current.db
        .updateTable("quote_requests")
        .set({ created_at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678) - minutesAgo * 60_000) } as never)
        .where("id", "in", stored.slice(group * 20, group * 20 + 20))
        .execute();
    }
    const list = async (query: string) =>
      (await (
        await settle(() =>
          listLoader({ request: get(`/admin-dashboard/quotes${query}`, adminCookie), params: {}, context: {} }),
        )
      ).json()) as { quotes: { id: string }[]; older: string | null; newer: string | null };

    const down: string[] = [];
    let page = await list("");
    for (let guard = 0; guard < 10; guard++) {
      down.push(...page.quotes.map((q) => q.id));
      if (!page.older) break;
      page = await list(`?older=${page.older}`);
    }
    expect(down).toHaveLength(60);
    expect(new Set(down).size).toBe(60);
    expect(new Set(down)).toEqual(new Set(stored));

    const up: string[] = [];
    page = await list("?oldest=1");
    for (let guard = 0; guard < 10; guard++) {
      up.unshift(...page.quotes.map((q) => q.id));
      if (!page.newer) break;
      page = await list(`?newer=${page.newer}`);
    }
    // The same order whichever end the admin starts from, and the same on every load.
    expect(up).toEqual(down);
    const again: string[] = [];
    page = await list("");
    for (let guard = 0; guard < 10; guard++) {
      again.push(...page.quotes.map((q) => q.id));
      if (!page.older) break;
      page = await list(`?older=${page.older}`);
    }
    expect(again).toEqual(down);

    // A status filter pages the same way.
    await database.current.db
      .updateTable("quote_requests")
      .set({ status: "won" })
      .where("id", "in", stored.slice(10, 50))
      .execute();
    const won: string[] = [];
    page = await list("?status=won");
    for (let guard = 0; guard < 10; guard++) {
      won.push(...page.quotes.map((q) => q.id));
      if (!page.older) break;
      page = await list(`?status=won&older=${page.older}`);
    }
    expect(won).toEqual(down.filter((id) => stored.slice(10, 50).includes(id)));
  });

  it("answers a cursor that is not a request with an empty page, not a 500", async () => {
    await storeQuote({ name: "Only One" });
    for (const query of [`?older=${MISSING_ID}`, "?newer=not-a-uuid", "?older=%00", "?oldest=yes"]) {
      const response = await settle(() =>
        listLoader({ request: get(`/admin-dashboard/quotes${query}`, adminCookie), params: {}, context: {} }),
      );
      expect(response.status, query).toBe(200);
      const data = await response.json();
      if (query === "?oldest=yes") expect(data.quotes).toHaveLength(1);
      else expect(data).toMatchObject({ quotes: [], pageGone: true });
    }
  });

  it("caps the counts beside the filters instead of counting every row", async () => {
    const { countQuoteRequestsByStatus, QUOTE_COUNT_CAP } = await import("~/models/quote-request.server");
    expect(QUOTE_COUNT_CAP).toBe(1000);
    await storeQuote({ name: "Counted" });
    expect(await countQuoteRequestsByStatus(["new", "won"])).toEqual({ all: 1, byStatus: { new: 1, won: 0 } });
  });
});

describe("quote detail and status changes", () => {
  it("shows every field with call and e-mail links data", async () => {
    const quote = await storeQuote({ message: "Beware of the friendly dog." });
    const response = await settle(() =>
      detailLoader({
        request: get(`/admin-dashboard/quotes/${quote.id}`, adminCookie),
        params: { quoteId: quote.id },
        context: {},
      }),
    );
    const { quote: shown } = await response.json();
    expect(shown).toMatchObject({
      name: "Dana Scoopfan",
      phone: "(702) 555-0123",
      email: quote.email,
      address: quote.address,
      zip: "89048",
      dogs: "2 dogs",
      yardSize: "Medium (2,000–5,000 sq ft)",
      service: "Weekly Swift Service",
      message: "Beware of the friendly dog.",
      estimateLabel: "$104/month",
      status: "new",
      // No e-mail on record for this one (stored without them).
      emails: { owner: null, visitor: null },
    });
  });

  it("shows each e-mail's status read from the outbox, on the page and in the list", async () => {
    const quote = await storeQuote({ name: "Mailed Owner" }, { emails: true });
    // A second request from the same address within 24 hours gets no confirmation.
    const again = await storeQuote({ name: "Mailed Again", email: quote.email }, { emails: true });
    await database.current.db
      .updateTable("outbox")
      .set({ status: "failed", attempts: 10, last_error: "550 mailbox unavailable" })
      .where("related_id", "=", again.id)
      .execute();
    const detail = async (id: string) =>
      (
        await (
          await settle(() =>
            detailLoader({
              request: get(`/admin-dashboard/quotes/${id}`, adminCookie),
              params: { quoteId: id },
              context: {},
            }),
          )
        ).json()
      ).quote.emails;
    expect(await detail(quote.id)).toMatchObject({
      owner: { status: "skipped", label: "Not sent (e-mail is not configured)", attempts: 0 },
      visitor: { status: "skipped" },
    });
    expect(await detail(again.id)).toEqual({
      owner: { status: "failed", label: "Failed", attempts: 10, error: "550 mailbox unavailable", sentAt: null },
      visitor: null,
    });
    const list = await (
      await settle(() => listLoader({ request: get("/admin-dashboard/quotes", adminCookie), params: {}, context: {} }))
    ).json();
    expect(list.quotes.map((q: { name: string; mailStatus: string | null }) => [q.name, q.mailStatus])).toEqual([
      ["Mailed Again", "Failed"],
      ["Mailed Owner", "Not sent (e-mail is not configured)"],
    ]);
  });

  it("answers 404 for an unknown or malformed id", async () => {
    for (const quoteId of [MISSING_ID, "not-a-uuid"]) {
      const loaded = await settle(() =>
        detailLoader({
          request: get(`/admin-dashboard/quotes/${quoteId}`, adminCookie),
          params: { quoteId },
          context: {},
        }),
      );
      expect(loaded.status).toBe(404);
      const posted = await settle(() =>
        detailAction({
          request: post(`/admin-dashboard/quotes/${quoteId}`, { status: "won" }, adminCookie),
          params: { quoteId },
          context: {},
        }),
      );
      expect(posted.status).toBe(404);
    }
  });

  it("changes the status with a success toast", async () => {
    const quote = await storeQuote({});
    const response = await settle(() =>
      detailAction({
        request: post(`/admin-dashboard/quotes/${quote.id}`, { status: "contacted" }, adminCookie),
        params: { quoteId: quote.id },
        context: {},
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin-dashboard/quotes/${quote.id}`);
    const cookie = (response.headers.get("Set-Cookie") ?? "").split(";")[0];
    const { toast } = await getToast(new Request("http://localhost/", { headers: { Cookie: cookie } }));
    expect(toast).toMatchObject({
      type: "success",
      message: "Status updated",
      description: "Dana Scoopfan's request is now marked contacted.",
    });
    const row = await database.current.db.selectFrom("quote_requests").select("status").executeTakeFirstOrThrow();
    expect(row.status).toBe("contacted");
  });

  it("rejects an invalid status with 400 and a message, changing nothing", async () => {
    const quote = await storeQuote({});
    for (const values of [{ status: "archived" }, {}] as Record<string, string>[]) {
      const response = await settle(() =>
        detailAction({
          request: post(`/admin-dashboard/quotes/${quote.id}`, values, adminCookie),
          params: { quoteId: quote.id },
          context: {},
        }),
      );
      expect(response.status).toBe(400);
      const data = await response.json();
      expect(data.lastResult.error.status).toEqual(["Choose one of: New, Contacted, Won, Lost."]);
    }
    const row = await database.current.db.selectFrom("quote_requests").select("status").executeTakeFirstOrThrow();
    expect(row.status).toBe("new");
  });
});
