import { afterAll, beforeAll } from "vitest";
import { setDatabaseForTests } from "~/utils/db.server";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * Points the app's models (getDb) at a fresh database for the tests of one file.
 * Usage: `const database = useAppDatabase();` then `database.current.db` in tests.
 */
export function useAppDatabase() {
  const holder: { current: TestDatabase } = { current: undefined as unknown as TestDatabase };
  beforeAll(async () => {
    holder.current = await createTestDatabase();
    setDatabaseForTests(holder.current.db);
  });
  afterAll(async () => {
    setDatabaseForTests(undefined);
    await holder.current?.close();
  });
  return holder;
}
