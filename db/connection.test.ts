import { sql } from "kysely";
import { describe, expect, test, vi } from "vitest";
import { connect } from "./connection";

// Records which of the embedded database's modules were imported; each is still the real one.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock("@electric-sql/pglite", async (importOriginal) => {
  loaded.add("@electric-sql/pglite");
  return importOriginal();
});
vi.mock("kysely-pglite-dialect", async (importOriginal) => {
  loaded.add("kysely-pglite-dialect");
  return importOriginal();
});

describe("the database connection", () => {
  test("with DATABASE_URL, PGlite and its dialect are never loaded", async () => {
    // Port 9 (discard) on loopback: nothing answers, so the query fails fast; what matters is
    // that trying it loaded nothing of PGlite.
    const handle = connect({ databaseUrl: "postgres://nobody@127.0.0.1:9/none", connectionTimeoutMs: 500 });
    expect(handle.kind).toBe("postgres");
    await expect(sql`select 1`.execute(handle.db)).rejects.toThrow();
    await handle.close();
    expect([...loaded]).toEqual([]);
  });

  test("without it, PGlite is loaded on the first query and answers", async () => {
    const handle = connect({ dataDir: "memory://" });
    expect(handle.kind).toBe("pglite");
    expect([...loaded]).toEqual([]);
    const { rows } = await sql<{ answer: number }>`select 41 + 1 as answer`.execute(handle.db);
    expect(rows).toEqual([{ answer: 42 }]);
    expect([...loaded].sort()).toEqual(["@electric-sql/pglite", "kysely-pglite-dialect"]);
    await handle.close();
  });
});
