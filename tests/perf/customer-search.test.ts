import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from "kysely";
import { beforeAll, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { searchCustomers } from "~/models/customer.server";
import { setDatabaseForTests } from "~/utils/db.server";

/**
 * The admin's customer search with a common term whose matches sit deep in the e-mail order
 * (issue 35 item 6; docs/decisions/110): 20,000 customers 'customer<n>@search.example', so that
 * 'customer19' matches 1,111 of them, none in the first half of the order. The answers are the
 * same as a plain sort of every match (on PGlite and PostgreSQL); on PostgreSQL, where the pg_trgm
 * indexes exist, the rows the search reads are counted from its queries' EXPLAIN ANALYZE: the walk
 * of the whole e-mail order (about 10,000 users and their 10,000 profiles, 2 s at 100k) is gone.
 * bench/customer-search.ts times it at 100k.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const CUSTOMERS = 20_000;

beforeAll(async () => {
  await sql`insert into users (email, created_at)
    select 'customer' || g || '@search.example', now() from generate_series(1, ${CUSTOMERS}) g`.execute(db());
  await sql`insert into profiles (user_id, full_name)
    select id, 'Walsh ' || split_part(split_part(email, '@', 1), 'customer', 2) from users`.execute(db());
  const admin = await sql<{ id: string }>`insert into users (email) values ('customer19-admin@search.example')
    returning id`.execute(db());
  await sql`insert into user_roles (user_id, role) values (${admin.rows[0].id}, 'owner')`.execute(db());
  await sql`analyze`.execute(db());
}, 120_000);

/** Every customer the term matches, in e-mail order: what a page must be a slice of. */
async function everyMatch(term: string, withoutPlan = false) {
  const rows = await sql<{ email: string }>`select u.email from users u join profiles p on p.user_id = u.id
    where (lower(u.email) like ${`%${term}%`} or lower(p.full_name) like ${`%${term}%`})
      and not exists (select 1 from user_roles r where r.user_id = u.id)
      and (${!withoutPlan} or not u.has_open_plan)
    order by lower(u.email)`.execute(db());
  return rows.rows.map((r) => r.email);
}

/** The SQL of every query the app runs while `run` runs, for EXPLAIN ANALYZE afterwards. */
async function queriesOf(run: () => Promise<unknown>) {
  const seen: CompiledQuery[] = [];
  const executor = db().getExecutor();
  const capture: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      seen.push(executor.compileQuery(node as RootOperationNode, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  setDatabaseForTests(db().withPlugin(capture));
  try {
    await run();
  } finally {
    setDatabaseForTests(db());
  }
  return seen;
}

type PlanNode = { "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; Plans?: PlanNode[] };
const rowsRead = (node: PlanNode): number =>
  (node["Relation Name"] ? node["Actual Rows"] * node["Actual Loops"] : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);

async function rowsReadBy(queries: CompiledQuery[]) {
  let total = 0;
  for (const query of queries) {
    const explained = await db().executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, format json) ${query.sql}`, [...query.parameters]),
    );
    total += rowsRead(explained.rows[0]["QUERY PLAN"][0].Plan);
  }
  return total;
}

describe("a common term deep in the e-mail order", () => {
  test("the first page and the next are the first matches in e-mail order, admins left out", async () => {
    const expected = await everyMatch("customer19");
    expect(expected.length).toBe(1111);
    const first = await searchCustomers({ q: "customer19", limit: 26 });
    expect(first.map((r) => r.email)).toEqual(expected.slice(0, 26));
    const last = first.at(-1)!;
    const next = await searchCustomers({ q: "Customer19", limit: 26, after: { email: last.email, id: last.id } });
    expect(next.map((r) => r.email)).toEqual(expected.slice(26, 52));
    // A name-only match ('walsh 19' is in no e-mail) and the "without a plan" filter.
    expect((await searchCustomers({ q: "walsh 19", limit: 26 })).map((r) => r.email)).toEqual(
      (await everyMatch("walsh 19")).slice(0, 26),
    );
    expect((await searchCustomers({ q: "customer19", withoutPlan: true, limit: 5 })).map((r) => r.email)).toEqual(
      (await everyMatch("customer19", true)).slice(0, 5),
    );
    // A dense term still answers from the walk; one that matches nobody is empty.
    expect((await searchCustomers({ q: "search.example", limit: 3 })).map((r) => r.email)).toEqual(
      (await everyMatch("search.example")).slice(0, 3),
    );
    expect(await searchCustomers({ q: "nobody-at-all", limit: 26 })).toEqual([]);
  });

  test("on PostgreSQL it reads a few thousand rows, not the e-mail order up to its matches", async () => {
    // PGlite has no pg_trgm: there every search reads both tables, and the count says nothing.
    if (database.current.kind !== "postgres") return;
    const queries = await queriesOf(() => searchCustomers({ q: "customer19", limit: 26 }));
    const read = await rowsReadBy(queries);
    console.log(`customer search 'customer19' at ${CUSTOMERS} customers: ${queries.length} queries, ${read} rows read`);
    // Before decision 110: the walk read about 10,000 users and 10,000 profiles.
    expect(read).toBeLessThan(5_000);
  });
});
