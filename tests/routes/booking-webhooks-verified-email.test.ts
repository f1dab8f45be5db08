import { sql } from "kysely";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { action as calComAction } from "~/routes/resources.webhooks.cal-com";
import { useAppDatabase } from "../helpers/app-database";
import { CAL_COM_SECRET, calComBody, calComRequest, uid } from "../helpers/booking-webhooks";
import { createUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";

/**
 * The e-mail fallback of "who booked", once the database knows verified e-mail. The accounts
 * work adds users.email_verified_at in its own migration; this file adds the column itself,
 * before the first delivery, so it runs the same before and after that merge.
 */

const database = useAppDatabase();
beforeAll(async () => {
  await sql`alter table users add column if not exists email_verified_at timestamptz`.execute(database.current.db);
});
beforeEach(() => vi.stubEnv("CAL_COM_WEBHOOK_SECRET", CAL_COM_SECRET));
afterEach(() => vi.unstubAllEnvs());

async function deliver(email: string) {
  const id = uid();
  const response = await callRoute(calComAction, "/resources/webhooks/cal-com", {
    method: "POST",
    ...calComRequest(calComBody("cal-com-booking-created", {}, { uid: id, attendees: [{ email, name: "Someone" }] })),
  });
  expect(response.status).toBe(200);
  const row = await database.current.db
    .selectFrom("bookings")
    .select("customer_id")
    .where("external_id", "=", id)
    .executeTakeFirstOrThrow();
  return row.customer_id;
}

describe("linking a booking by the attendee's e-mail", () => {
  it("links to a customer whose e-mail is verified, whatever its case", async () => {
    const customer = await createUser(database.current.db, { email: `verified-${uid()}@example.com` });
    await sql`update users set email_verified_at = now() where id = ${customer.id}`.execute(database.current.db);
    expect(await deliver(customer.email.toUpperCase())).toBe(customer.id);
  });

  it("leaves the booking unlinked when the e-mail is not verified, or belongs to an admin", async () => {
    const unverified = await createUser(database.current.db, { email: `unverified-${uid()}@example.com` });
    expect(await deliver(unverified.email)).toBeNull();
    const admin = await createUser(database.current.db, { email: `admin-${uid()}@example.com`, admin: true });
    await sql`update users set email_verified_at = now() where id = ${admin.id}`.execute(database.current.db);
    expect(await deliver(admin.email)).toBeNull();
  });
});
