import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/test-database";
import { createMigrator } from "./migrator";

// Migration 0034 (docs/decisions/123) on a database made before it (down, then up again): every
// admin becomes an owner.
let database: TestDatabase;
const db = () => database.db;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function user(email: string) {
  const { rows } = await sql<{ id: string }>`insert into users (email) values (${email}) returning id`.execute(db());
  return rows[0].id;
}

describe("migration 0034, staff roles", () => {
  it("makes every admin an owner, keeps customers customers, and allows one role per staff member", async () => {
    const migrator = createMigrator(db());
    expect((await migrator.migrateTo("0031-plans-by-catalogue-plan")).error).toBeUndefined();
    const admin = await user("old.admin@example.com");
    const customer = await user("customer@example.com");
    await sql`insert into user_roles (user_id, role) values (${admin}, 'admin')`.execute(db());

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const { rows } = await sql<{ user_id: string; role: string }>`select user_id, role from user_roles`.execute(db());
    expect(rows).toEqual([{ user_id: admin, role: "owner" }]);
    await expect(sql`insert into user_roles (user_id, role) values (${admin}, 'office')`.execute(db())).rejects.toThrow(
      /user_roles_one_role_idx|duplicate/,
    );
    await expect(
      sql`insert into user_roles (user_id, role) values (${customer}, 'admin')`.execute(db()),
    ).rejects.toThrow(/check/i);
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where (table_name, column_name) in (('users', 'deactivated_at'), ('services', 'assigned_to'))
      order by table_name`.execute(db());
    expect(columns.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([
      "services.assigned_to",
      "users.deactivated_at",
    ]);
  });
});
