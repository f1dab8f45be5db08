import { NO_MIGRATIONS, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/test-database";
import { createMigrator } from "./migrator";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

async function newUser(email: string) {
  return database.db.insertInto("users").values({ email }).returning("id").executeTakeFirstOrThrow();
}

describe("migrations", () => {
  it("create every table of the design", async () => {
    const tables = await database.db.introspection.getTables();
    expect(tables.map((t) => t.name).sort()).toEqual(
      expect.arrayContaining([
        "bookings",
        "oauth_accounts",
        "profiles",
        "quote_requests",
        "rate_limits",
        "service_images",
        "services",
        "sessions",
        "user_roles",
        "users",
      ]),
    );
  });

  it("create the indexes that serve the dashboard lists", async () => {
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select indexname, indexdef from pg_indexes where schemaname = current_schema()`.execute(database.db);
    const byName = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef]));
    expect(byName.services_customer_id_service_date_idx).toMatch(/\(customer_id, service_date DESC\)/);
    expect(byName.service_images_service_id_created_at_idx).toMatch(/\(service_id, created_at DESC\)/);
    expect(byName.bookings_customer_id_booking_date_idx).toMatch(/\(customer_id, booking_date DESC\)/);
    expect(byName.users_email_lower_key).toMatch(/UNIQUE.*lower\(email\)/);
    // The quote inbox's keyset order, with and without a status (0006).
    expect(byName.quote_requests_created_at_id_idx).toMatch(/\(created_at, id\)/);
    expect(byName.quote_requests_status_created_at_id_idx).toMatch(/\(status, created_at, id\)/);
    // The customer search's trigram indexes, wherever PostgreSQL has pg_trgm (PGlite does not).
    const { rows: trgm } = await sql<{ ok: boolean }>`
      select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as ok`.execute(database.db);
    if (trgm[0]?.ok) {
      expect(byName.users_email_lower_trgm_idx).toMatch(/gin \(lower\(email\) gin_trgm_ops\)/);
      expect(byName.profiles_full_name_lower_trgm_idx).toMatch(/gin \(lower\(full_name\) gin_trgm_ops\)/);
    }
  });

  it("treat e-mail addresses as unique whatever their case", async () => {
    await newUser("Pat@Example.com");
    await expect(newUser("pat@example.COM")).rejects.toThrow(/users_email_lower_key|duplicate/);
  });

  it("reject statuses, types and roles outside the spec", async () => {
    const user = await newUser("checks@example.com");
    await expect(
      database.db
        .insertInto("services")
        .values({ customer_id: user.id, service_type: "Moon Landing" as never, service_date: new Date() })
        .execute(),
    ).rejects.toThrow(/check/i);
    const visit = await database.db
      .insertInto("services")
      .values({ customer_id: user.id, service_type: "Desert Dash", service_date: new Date() })
      .returning(["id", "status"])
      .executeTakeFirstOrThrow();
    expect(visit.status).toBe("scheduled");
    await expect(
      database.db
        .insertInto("service_images")
        .values({ service_id: visit.id, image_url: "a/b/during_1.jpg", image_type: "during" as never })
        .execute(),
    ).rejects.toThrow(/check/i);
    await expect(
      database.db
        .insertInto("user_roles")
        .values({ user_id: user.id, role: "admin" as never })
        .execute(),
    ).rejects.toThrow(/check/i);
    await expect(
      database.db
        .insertInto("bookings")
        .values({ customer_id: user.id, service_type: "Weekly", booking_date: new Date(), status: "maybe" as never })
        .execute(),
    ).rejects.toThrow(/check/i);
  });

  it("delete a user's rows with the user", async () => {
    const user = await newUser("cascade@example.com");
    await database.db.insertInto("profiles").values({ user_id: user.id, full_name: "Cas Cade" }).execute();
    await database.db
      .insertInto("services")
      .values({ customer_id: user.id, service_type: "Weekly Service", service_date: new Date() })
      .execute();
    await database.db.deleteFrom("users").where("id", "=", user.id).execute();
    const left = await database.db.selectFrom("services").select("id").where("customer_id", "=", user.id).execute();
    expect(left).toHaveLength(0);
  });

  it("0005 keeps each quote request's old e-mail status as a final outbox row, and down restores it", async () => {
    const migrator = createMigrator(database.db);
    expect((await migrator.migrateTo("0004-bookings")).error).toBeUndefined();
    const statuses = [
      ["sent", 1, null, new Date("2026-01-02T03:04:05Z")],
      ["skipped", 0, null, null],
      ["failed", 3, "connect ECONNREFUSED", null],
      ["pending", 0, null, null],
    ] as const;
    const ids: string[] = [];
    for (const [status, attempts, error, notifiedAt] of statuses) {
      const { rows } = await sql<{ id: string }>`
        insert into quote_requests (name, phone, email, address, zip, dogs, yard_size, service, dedupe_key,
                                    notification_status, notification_attempts, notification_error, notified_at)
        values ('Old ' || ${status}, '7025550100', 'old@example.com', '1 Old St', '89048', '1', 'small', 'weekly',
                ${status}, ${status}, ${attempts}, ${error}, ${notifiedAt})
        returning id`.execute(database.db);
      ids.push(rows[0].id);
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const columns = (await database.db.introspection.getTables()).find((t) => t.name === "quote_requests")!.columns;
    expect(columns.map((c) => c.name)).not.toContain("notification_status");
    const carried = await database.db
      .selectFrom("outbox")
      .select(["related_id", "kind", "status", "attempts", "last_error", "sent_at", "dedupe_key"])
      .where("related_id", "in", ids)
      .execute();
    const byId = new Map(carried.map((row) => [row.related_id, row]));
    expect(ids.map((id) => byId.get(id)?.status)).toEqual(["sent", "skipped", "failed", "failed"]);
    expect(byId.get(ids[0])).toMatchObject({ kind: "quote_owner", attempts: 1, dedupe_key: `quote-owner:${ids[0]}` });
    expect(byId.get(ids[0])?.sent_at?.toISOString()).toBe("2026-01-02T03:04:05.000Z");
    expect(byId.get(ids[2])?.last_error).toBe("connect ECONNREFUSED; not sent before e-mail moved to the outbox");
    // Nothing carried over is ever sent: no row is waiting.
    expect(carried.every((row) => row.status !== "pending")).toBe(true);

    expect((await migrator.migrateTo("0004-bookings")).error).toBeUndefined();
    const { rows: restored } = await sql<{ id: string; notification_status: string; notification_attempts: number }>`
      select id, notification_status, notification_attempts from quote_requests where id in (${sql.join(ids)})`.execute(
      database.db,
    );
    const restoredById = new Map(restored.map((row) => [row.id, row]));
    expect(ids.map((id) => restoredById.get(id)?.notification_status)).toEqual(["sent", "skipped", "failed", "failed"]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await database.db.deleteFrom("outbox").execute();
    await database.db.deleteFrom("quote_requests").execute();
  });

  it("roll back to an empty schema and forward again", async () => {
    const migrator = createMigrator(database.db);
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    const afterDown = await database.db.introspection.getTables();
    expect(afterDown.filter((t) => t.name === "users")).toHaveLength(0);
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const afterUp = await database.db.introspection.getTables();
    expect(afterUp.some((t) => t.name === "users")).toBe(true);
  });
});
