import { sql } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf } from "../helpers/route-calls";
import * as adminIndex from "~/routes/admin-dashboard._index";
import * as customerSearch from "~/routes/resources.customer-search";

/**
 * The Create Service customer picker (docs/decisions/064): a server-side search, admins only,
 * at most 20 matches, never a list of every customer.
 */
const database = useAppDatabase();
const db = () => database.current.db;

let admin: TestUser;
let customer: TestUser;
let adminCookie: string;
let customerCookie: string;
const many: TestUser[] = [];

beforeAll(async () => {
  admin = await createUser(db(), { admin: true, email: "boss-picker@example.com", fullName: "Picker Boss" });
  customer = await createUser(db(), { email: "pat.lee@example.com", fullName: "Pat Lee", verified: false });
  for (let i = 0; i < 25; i++) {
    many.push(
      await createUser(db(), { email: `hedge${String(i).padStart(2, "0")}@example.com`, fullName: `Hedge ${i}` }),
    );
  }
  await createUser(db(), { email: "percent%sign@example.com", fullName: "Under_Score" });
  adminCookie = await sessionCookieFor(admin.id);
  customerCookie = await sessionCookieFor(customer.id);
});

type SearchBody = { customers: { id: string; label: string }[]; error: string | null };
const search = async (q: string, cookie = adminCookie) =>
  callRoute(customerSearch.loader, `/resources/customer-search?${new URLSearchParams({ q })}`, { cookie });

describe("/resources/customer-search", () => {
  test("the anonymous are sent to sign in and get no customers", async () => {
    const response = await search("pat", "");
    expect(response.status).toBe(302);
    expect(locationOf(response)).toMatch(/^\/auth(\?redirectTo=%2F[^&]*)?$/);
    expect(response.headers.get("Content-Type") ?? "").not.toMatch(/json/);
  });

  test("a customer is sent to their dashboard and gets no customers", async () => {
    const response = await search("pat", customerCookie);
    expect(response.status).toBe(302);
    expect(locationOf(response)).toBe("/customer-dashboard");
    expect(response.headers.get("Content-Type") ?? "").not.toMatch(/json/);
  });

  test("the admin finds a customer by part of the name or the e-mail, never an admin", async () => {
    const byName = (await (await search("pat l")).json()) as SearchBody;
    expect(byName.customers).toEqual([{ id: customer.id, label: "Pat Lee (pat.lee@example.com) (unverified)" }]);
    const byEmail = (await (await search("LEE@EXAMPLE")).json()) as SearchBody;
    expect(byEmail.customers.map((c) => c.id)).toEqual([customer.id]);
    const admins = (await (await search("boss-picker")).json()) as SearchBody;
    expect(admins.customers).toEqual([]);
    const response = await search("picker");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  test("answers at most 20 matches, in e-mail order", async () => {
    const body = (await (await search("hedge")).json()) as SearchBody;
    expect(body.customers).toHaveLength(20);
    expect(body.customers.map((c) => c.id)).toEqual(many.slice(0, 20).map((u) => u.id));
  });

  test("an empty search matches nobody (not every customer)", async () => {
    const body = (await (await search("   ")).json()) as SearchBody;
    expect(body).toEqual({ customers: [], error: null });
  });

  test("wildcards are letters, and odd input answers without a 500", async () => {
    const percent = (await (await search("%")).json()) as SearchBody;
    expect(percent.customers.map((c) => c.label)).toEqual(["Under_Score (percent%sign@example.com)"]);
    const underscore = (await (await search("r_s")).json()) as SearchBody;
    expect(underscore.customers.map((c) => c.label)).toEqual(["Under_Score (percent%sign@example.com)"]);
    for (const q of ["\u0000", "a\u0000b", "\\", "'; drop table users; --", "\uFFFD\uD800", "(", "[a-z]*"]) {
      const response = await search(q);
      expect(response.status, JSON.stringify(q)).toBe(200);
    }
    const raw = await callRoute(customerSearch.loader, "/resources/customer-search?q=%E0%A4%A", {
      cookie: adminCookie,
    });
    expect(raw.status).toBe(200);
  });

  test("a term matching more than 1,000 customers still answers the first 20 in e-mail order", async () => {
    await sql`insert into users (email) select 'bulk' || lpad(g::text, 4, '0') || '@common.example'
      from generate_series(1, 1100) g`.execute(db());
    const body = (await (await search("common.example")).json()) as SearchBody;
    expect(body.customers.map((c) => c.label)).toEqual(
      Array.from({ length: 20 }, (_, i) => `bulk${String(i + 1).padStart(4, "0")}@common.example (unverified)`),
    );
    const { searchCustomers } = await import("~/models/customer.server");
    const next = await searchCustomers({ q: "COMMON", after: { email: "bulk1095@common.example", id: "" }, limit: 10 });
    expect(next.map((c) => c.email)).toEqual([1096, 1097, 1098, 1099, 1100].map((n) => `bulk${n}@common.example`));
  });

  test("a search longer than 100 characters is refused with 400 and no customers", async () => {
    const response = await search("a".repeat(101));
    expect(response.status).toBe(400);
    expect(((await response.json()) as SearchBody).customers).toEqual([]);
  });
});

describe("the Create Service picker on /admin-dashboard", () => {
  type PickerData = {
    selectedCustomer: { id: string; label: string } | null;
    customerMatches: { id: string; label: string }[] | null;
    customerQuery: string;
  };
  const load = async (query: string) =>
    (await (
      await callRoute(adminIndex.loader, `/admin-dashboard?${query}`, { cookie: adminCookie })
    ).json()) as PickerData & Record<string, unknown>;

  test("lists no customers until the admin searches", async () => {
    const data = await load("tab=create");
    expect(data.customerMatches).toBeNull();
    expect(data.selectedCustomer).toBeNull();
    expect(data).not.toHaveProperty("customers");
  });

  test("without JavaScript, a search shows at most 20 matches", async () => {
    const data = await load("tab=create&customerSearch=hedge");
    expect(data.customerQuery).toBe("hedge");
    expect(data.customerMatches).toHaveLength(20);
    const none = await load("tab=create&customerSearch=nobody-by-that-name");
    expect(none.customerMatches).toEqual([]);
  });

  test("the customer in the URL is chosen; an admin or a made-up id is not", async () => {
    const chosen = await load(`tab=create&customer=${customer.id}`);
    expect(chosen.selectedCustomer).toEqual({ id: customer.id, label: "Pat Lee (pat.lee@example.com) (unverified)" });
    expect((await load(`tab=create&customer=${admin.id}`)).selectedCustomer).toBeNull();
    expect((await load("tab=create&customer=not-a-uuid")).selectedCustomer).toBeNull();
  });

  test("odd searches in the URL answer without a 500", async () => {
    for (const q of ["%00", "%", "a".repeat(500), "%E0%A4%A"]) {
      const response = await callRoute(adminIndex.loader, `/admin-dashboard?tab=create&customerSearch=${q}`, {
        cookie: adminCookie,
      });
      expect(response.status, q).toBe(200);
    }
  });
});
