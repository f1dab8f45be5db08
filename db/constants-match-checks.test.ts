import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/helpers/test-database";
import {
  BOOKING_PROVIDERS,
  BOOKING_SOURCES,
  BOOKING_STATUSES,
  DOG_COUNTS,
  HEALTH_FLAGS,
  IMAGE_TYPES,
  INVOICE_LINE_KINDS,
  INVOICE_SEQUENCE_MAX,
  INVOICE_STATUSES,
  LEDGER_ENTRY_KINDS,
  CREDIT_NOTE_PAYOUTS,
  CREDIT_NOTE_REASONS,
  invoiceNumber,
  MISSED_REASONS,
  OAUTH_PROVIDERS,
  OUTBOX_KINDS,
  OUTBOX_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_REVERSAL_KINDS,
  PLAN_EVENT_KINDS,
  PLAN_STATUSES,
  CANCEL_REASONS,
  QUOTE_STATUSES,
  ROLES,
  SKIP_REASONS,
  TOKEN_PURPOSES,
  VISIT_EVENT_KINDS,
  VISIT_STATUSES,
  VISIT_TYPES,
  YARD_SIZES,
} from "./enums";

// Migrations are frozen and carry their own copies of the lists they check. This test is what
// keeps those copies and the live lists in step: change a list, and it fails until a new
// migration changes the CHECK constraint to match.
const LIVE_LISTS: { table: string; column: string; values: readonly string[] }[] = [
  { table: "services", column: "service_type", values: VISIT_TYPES },
  { table: "services", column: "status", values: VISIT_STATUSES },
  { table: "services", column: "missed_reason", values: MISSED_REASONS },
  { table: "services", column: "health_flags", values: HEALTH_FLAGS },
  { table: "service_events", column: "kind", values: VISIT_EVENT_KINDS },
  { table: "outbox", column: "kind", values: OUTBOX_KINDS },
  { table: "outbox", column: "status", values: OUTBOX_STATUSES },
  { table: "bookings", column: "status", values: BOOKING_STATUSES },
  { table: "bookings", column: "source", values: BOOKING_SOURCES },
  { table: "bookings", column: "provider", values: BOOKING_PROVIDERS },
  { table: "service_images", column: "image_type", values: IMAGE_TYPES },
  { table: "user_roles", column: "role", values: ROLES },
  { table: "oauth_accounts", column: "provider", values: OAUTH_PROVIDERS },
  { table: "account_tokens", column: "purpose", values: TOKEN_PURPOSES },
  { table: "quote_requests", column: "status", values: QUOTE_STATUSES },
  { table: "quote_requests", column: "dogs", values: DOG_COUNTS },
  { table: "quote_requests", column: "yard_size", values: YARD_SIZES },
  { table: "services", column: "skip_reason", values: SKIP_REASONS },
  { table: "customer_plans", column: "status", values: PLAN_STATUSES },
  { table: "customer_plans", column: "cancel_reason", values: CANCEL_REASONS },
  { table: "customer_plans", column: "yard_size", values: YARD_SIZES },
  { table: "customer_plan_events", column: "kind", values: PLAN_EVENT_KINDS },
  { table: "invoices", column: "status", values: INVOICE_STATUSES },
  { table: "invoice_lines", column: "kind", values: INVOICE_LINE_KINDS },
  { table: "payments", column: "method", values: PAYMENT_METHODS },
  { table: "ledger_entries", column: "kind", values: LEDGER_ENTRY_KINDS },
  { table: "credit_notes", column: "reason", values: CREDIT_NOTE_REASONS },
  { table: "credit_notes", column: "paid_out", values: CREDIT_NOTE_PAYOUTS },
  { table: "payment_reversals", column: "kind", values: PAYMENT_REVERSAL_KINDS },
];

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** The string literals a column's CHECK constraints allow, as the migrated database states them. */
async function allowedValues(table: string, column: string): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(c.oid) as definition
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = any (c.conkey)
    where c.contype = 'c' and t.relname = ${table} and a.attname = ${column}
      -- the value list is the column's own check (PostgreSQL's name for it); a check that ties
      -- columns together (a paused plan has its dates) may quote a value too
      and c.conname = ${`${table}_${column}_check`}
      and t.relnamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(database.db);
  const lists = rows
    .map((row) => [...row.definition.matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => m[1].replace(/''/g, "'")))
    .filter((values) => values.length > 0);
  expect(lists, `${table}.${column} has one CHECK list`).toHaveLength(1);
  return lists[0];
}

describe("the live value lists", () => {
  for (const { table, column, values } of LIVE_LISTS) {
    it(`match the CHECK constraint of ${table}.${column}`, async () => {
      expect((await allowedValues(table, column)).sort()).toEqual([...values].sort());
    });
  }

  it("would notice a list that drifted from its constraint", async () => {
    // The check above is only worth having if it can fail: a list with one extra value differs.
    const drifted = [...VISIT_STATUSES, "teleported"].sort();
    expect((await allowedValues("services", "status")).sort()).not.toEqual(drifted);
  });
});

/** A constraint's definition as the migrated database states it. */
async function constraintDefinition(table: string, name: string): Promise<string> {
  const { rows } = await sql<{ definition: string }>`
    select pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class t on t.oid = c.conrelid
    where t.relname = ${table} and c.conname = ${name}
      and t.relnamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(database.db);
  expect(rows, `${table} has the CHECK ${name}`).toHaveLength(1);
  return rows[0].definition;
}

// The invoice number's width is a CHECK too (migration 0022, docs/decisions/112): the format
// invoiceNumber() writes and the counter's ceiling must be what the database accepts.
describe("the invoice number format", () => {
  it("matches the CHECK on invoice_number_counters.last_number", async () => {
    const definition = await constraintDefinition(
      "invoice_number_counters",
      "invoice_number_counters_last_number_check",
    );
    const bounds = /last_number >= (\d+)\).*last_number <= (\d+)\)/.exec(definition);
    expect(bounds, definition).not.toBeNull();
    expect([Number(bounds![1]), Number(bounds![2])]).toEqual([0, INVOICE_SEQUENCE_MAX]);
  });

  it("matches the CHECK on invoices.number, from the first number to the last", async () => {
    const definition = await constraintDefinition("invoices", "invoices_number_check");
    const pattern = /'((?:[^']|'')*)'::text/.exec(definition)?.[1];
    expect(pattern, definition).toBeDefined();
    const accepted = async (number: string) =>
      (await sql<{ ok: boolean }>`select ${number} ~ ${pattern} as ok`.execute(database.db)).rows[0].ok;
    for (const sequence of [1, 999_999, 1_000_000, 10_000_000, INVOICE_SEQUENCE_MAX]) {
      expect(await accepted(invoiceNumber(2027, sequence)), invoiceNumber(2027, sequence)).toBe(true);
    }
    // One digit wider than invoiceNumber() can write is refused: the two agree at the top too.
    expect(await accepted(`2027-${INVOICE_SEQUENCE_MAX}0`)).toBe(false);
    expect(await accepted("2027-00001")).toBe(false);
  });
});
