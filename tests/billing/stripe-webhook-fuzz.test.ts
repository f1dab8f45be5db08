import fc from "fast-check";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import Stripe from "stripe";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "../../db/schema";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, type TestUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";
import { STRIPE_TEST_ENV, createOpenInvoice, giveCard, useStripe, useStripeStandIn } from "../helpers/stripe-billing";
import { STRIPE_WEBHOOK_EVENTS } from "~/features/billing/stripe-webhook.server";
import * as webhook from "~/routes/resources.webhooks.stripe";
import { setDatabaseForTests } from "~/utils/db.server";
import { log } from "~/utils/logger.server";

/**
 * Webhooks that never ask for a retry they cannot use (issue 34 item 8, docs/decisions/111):
 * correctly signed events with odd bodies (fields missing, of the wrong type, null, ids Stripe
 * does not have, objects that belong to no invoice here) are sent to the real route, which reads
 * them back from the Stripe stand-in (404 `resource_missing` for an unknown id, as Stripe). Every
 * answer is 2xx and nothing is stored. Stripe or the database out of reach still answers 5xx.
 */
const database = useAppDatabase();
const db = () => database.current.db;
const stripe = useStripeStandIn(db);

let alice: TestUser;
let invoiceId: string;
/** Real objects at the stand-in that belong to no invoice here: the re-read succeeds, then matches nothing. */
let foreign: { pi: string[]; cs: string[]; seti: string[] };

beforeEach(async () => {
  alice ??= await createUser(db(), { fullName: "Alice Able" });
  await giveCard(db(), stripe.current, alice.id);
  invoiceId = await createOpenInvoice(db(), alice.id, 8900);
  const standIn = stripe.current;
  const customer = [...standIn.customers.keys()][0]!;
  const pm = standIn.addPaymentMethod({ brand: "visa", last4: "4000", expMonth: 1, expYear: 2031 }).id;
  const intentFor = (metadata: Record<string, string>) => {
    const id = `pi_foreign${standIn.paymentIntents.size}`;
    standIn.paymentIntents.set(id, {
      id,
      object: "payment_intent",
      amount: 8900,
      amount_received: 8900,
      currency: "usd",
      customer,
      payment_method: pm,
      metadata,
      status: "succeeded",
      last_payment_error: null,
      latest_charge: `ch_foreign${standIn.paymentIntents.size}`,
      created: 1,
      livemode: false,
    });
    return id;
  };
  // An invoice no one has here, another customer's, and no metadata at all.
  const pis = [
    intentFor({ invoice_id: crypto.randomUUID(), customer_id: alice.id }),
    intentFor({ invoice_id: invoiceId, customer_id: crypto.randomUUID() }),
    intentFor({}),
  ];
  const session = (mode: string) => {
    const id = `cs_foreign${mode}`;
    standIn.sessions.set(id, {
      id,
      object: "checkout.session",
      mode,
      status: "complete",
      customer: "cus_nobodyhere",
      metadata: {},
      payment_intent: mode === "payment" ? pis[0] : null,
      setup_intent: null,
      created: 1,
    });
    return id;
  };
  foreign = { pi: pis, cs: [session("payment"), session("setup")], seti: [] };
});

function sign(payload: string) {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET });
}
function post(payload: string) {
  return callRoute(webhook.action, "/resources/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": sign(payload) },
  });
}

let eventNumber = 0;
const envelope = (type: string, object: unknown) => ({
  id: `evt_fuzz${++eventNumber}`,
  object: "event",
  api_version: "2025-01-01",
  created: 1,
  type,
  data: { object },
  livemode: false,
});

/** Anything but a good value: absent, null, the wrong type, or a junk string. */
const junk = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 30 }),
  fc.constantFrom("", " ", "../../v1/customers", "pi_", "cs_'; drop table payments;--", "x".repeat(300)),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
/** An id of Stripe's shape that Stripe does not have (404 resource_missing from the stand-in). */
const unknownId = (prefix: string) =>
  fc.stringMatching(/^[A-Za-z0-9]{1,24}$/).map((tail) => `${prefix}_unknown${tail}`);
const idFor = (prefix: "pi" | "cs" | "seti") =>
  fc.oneof(
    junk,
    unknownId(prefix),
    unknownId(prefix === "pi" ? "cs" : "pi"),
    fc.constant(null).map(() => foreign[prefix][0] ?? `${prefix}_none`),
    fc.nat(5).map((i) => foreign[prefix][i % Math.max(foreign[prefix].length, 1)] ?? `${prefix}_none`),
  );
/** An expandable field: an id, an object carrying one, or junk. */
const refFor = (prefix: "pi") =>
  fc.oneof(
    idFor(prefix),
    idFor(prefix).map((id) => ({ id })),
  );

/** Drops the keys whose value came out undefined (a field missing, rather than present and undefined). */
const shape = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

const bodies: Record<(typeof STRIPE_WEBHOOK_EVENTS)[number], fc.Arbitrary<unknown>> = {
  "checkout.session.completed": fc
    .record({ id: idFor("cs"), mode: fc.oneof(junk, fc.constantFrom("payment", "setup", "subscription")) })
    .map(shape),
  "payment_intent.succeeded": fc.record({ id: idFor("pi"), status: junk, metadata: junk }).map(shape),
  "payment_intent.payment_failed": fc.record({ id: idFor("pi"), last_payment_error: junk }).map(shape),
  "setup_intent.succeeded": fc.record({ id: idFor("seti"), customer: junk, payment_method: junk }).map(shape),
  "charge.refunded": fc.record({ id: junk, payment_intent: refFor("pi"), amount_refunded: junk }).map(shape),
  "charge.dispute.created": fc.record({ id: junk, payment_intent: refFor("pi"), reason: junk }).map(shape),
  "charge.dispute.funds_withdrawn": fc.record({ id: junk, payment_intent: refFor("pi"), reason: junk }).map(shape),
  "charge.dispute.closed": fc
    .record({ id: fc.oneof(junk, unknownId("du"), unknownId("dp")), status: junk, amount: junk, payment_intent: junk })
    .map(shape),
};

async function nothingStored() {
  const count = async (table: "payments" | "refunds" | "stripe_payment_failures" | "invoice_charge_failures") =>
    Number((await db().selectFrom(table).select(db().fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
  expect({
    payments: await count("payments"),
    refunds: await count("refunds"),
    failures: await count("stripe_payment_failures"),
    chargeFailures: await count("invoice_charge_failures"),
  }).toEqual({ payments: 0, refunds: 0, failures: 0, chargeFailures: 0 });
  expect(
    await db()
      .selectFrom("invoices")
      .select(["status", "paid_cents", "charge_attempts", "next_charge_on"])
      .where("id", "=", invoiceId)
      .executeTakeFirstOrThrow(),
  ).toEqual({ status: "open", paid_cents: 0, charge_attempts: 0, next_charge_on: null });
  // No charge was made and no card changed at Stripe.
  expect(stripe.current.posts("/v1/payment_intents")).toEqual([]);
  expect(stripe.current.requests.filter((r) => r.method === "POST" && r.path.startsWith("/v1/customers/"))).toEqual([]);
}

describe("signed odd bodies", () => {
  for (const type of STRIPE_WEBHOOK_EVENTS) {
    it(`${type}: every odd body is answered 2xx and stores nothing`, async () => {
      const answers: { status: number; body: unknown }[] = [];
      await fc.assert(
        fc.asyncProperty(bodies[type], async (object) => {
          const response = await post(JSON.stringify(envelope(type, object)));
          answers.push({ status: response.status, body: object });
          return response.status >= 200 && response.status < 300;
        }),
        { numRuns: 60, seed: 34 },
      );
      expect(answers.filter((a) => a.status >= 300)).toEqual([]);
      await nothingStored();
    });
  }

  it("any signed JSON at all (no envelope, no data, no object, an array) is 2xx and stores nothing", async () => {
    const odd = fc.oneof(
      fc.jsonValue(),
      fc.record({ id: junk, type: fc.constantFrom(...STRIPE_WEBHOOK_EVENTS), data: junk }).map(shape),
      fc
        .record({ id: junk, type: fc.constantFrom(...STRIPE_WEBHOOK_EVENTS), data: fc.record({ object: junk }) })
        .map(shape),
    );
    await fc.assert(
      fc.asyncProperty(odd, async (value) => {
        const response = await post(JSON.stringify(value === undefined ? null : value));
        return response.status >= 200 && response.status < 300;
      }),
      { numRuns: 80, seed: 34 },
    );
    await nothingStored();
  });

  it("a payment_intent.succeeded for an intent Stripe does not have is 200, logged, and its replay answers at once", async () => {
    const warn = vi.spyOn(log, "warn");
    const event = envelope("payment_intent.succeeded", { id: "pi_deletedlongago", object: "payment_intent" });
    const first = await post(JSON.stringify(event));
    expect(first.status).toBe(200);
    expect(warn).toHaveBeenCalledWith(
      "stripe.webhook_object_refused",
      expect.objectContaining({ eventId: event.id, type: "payment_intent.succeeded" }),
    );
    warn.mockRestore();
    const again = await post(JSON.stringify(event));
    expect(again.status).toBe(200);
    expect(await again.text()).toBe("Already received");
    await nothingStored();
  });

  it("a charge.refunded whose payment_intent is missing (the TypeError on undefined.id) is 200 and logged", async () => {
    const warn = vi.spyOn(log, "warn");
    const response = await post(JSON.stringify({ ...envelope("charge.refunded", null) }));
    expect(response.status).toBe(200);
    expect(warn).toHaveBeenCalledWith("stripe.webhook_malformed", expect.anything());
    warn.mockRestore();
    await nothingStored();
  });
});

describe("what a retry can fix is still 5xx", () => {
  it("Stripe out of reach: 500, nothing stored, the event not marked received", async () => {
    useStripe(stripe.current, { STRIPE_API_BASE_URL: "http://127.0.0.1:9" });
    const event = envelope("payment_intent.succeeded", { id: foreign.pi[0] });
    expect((await post(JSON.stringify(event))).status).toBe(500);
    useStripe(stripe.current);
    expect(await db().selectFrom("stripe_events").select("id").execute()).toEqual([]);
    await nothingStored();
  });

  it("the database out of reach: 500, and Stripe's retry once it is back is handled", async () => {
    // A pool whose server refuses connections, as a database gone away (the real one is untouched).
    const gone = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:9/gone", connectionTimeoutMillis: 500 }),
      }),
    });
    const event = envelope("payment_intent.succeeded", { id: "pi_unknownwhiledown" });
    setDatabaseForTests(gone);
    try {
      expect((await post(JSON.stringify(event))).status).toBe(500);
    } finally {
      setDatabaseForTests(db());
      await gone.destroy();
    }
    expect(await db().selectFrom("stripe_events").select("id").execute()).toEqual([]);
    const retried = await post(JSON.stringify(event));
    expect(retried.status).toBe(200);
    expect((await db().selectFrom("stripe_events").select("id").execute()).map((r) => r.id)).toEqual([event.id]);
    await nothingStored();
  });
});
