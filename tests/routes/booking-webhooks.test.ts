import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { action as calComAction, loader as calComLoader } from "~/routes/resources.webhooks.cal-com";
import { action as calendlyAction } from "~/routes/resources.webhooks.calendly";
import { createCustomerReference } from "~/features/bookings/customer-reference.server";
import { listRecentBookingsForCustomer } from "~/models/booking.server";
import { useAppDatabase } from "../helpers/app-database";
import {
  CAL_COM_SECRET,
  CALENDLY_KEY,
  calComBody,
  calComRequest,
  calendlyBody,
  calendlyRequest,
  uid,
} from "../helpers/booking-webhooks";
import { createUser } from "../helpers/factories";
import { callRoute } from "../helpers/route-calls";

const database = useAppDatabase();

beforeEach(() => {
  vi.stubEnv("CAL_COM_WEBHOOK_SECRET", CAL_COM_SECRET);
  vi.stubEnv("CALENDLY_WEBHOOK_SIGNING_KEY", CALENDLY_KEY);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const CAL_COM_URL = "/resources/webhooks/cal-com";
const CALENDLY_URL = "/resources/webhooks/calendly";

const postCalCom = (request: ReturnType<typeof calComRequest>) =>
  callRoute(calComAction, CAL_COM_URL, { method: "POST", ...request });
const postCalendly = (request: ReturnType<typeof calendlyRequest>) =>
  callRoute(calendlyAction, CALENDLY_URL, { method: "POST", ...request });

async function bookingsWith(externalIds: string[]) {
  return database.current.db
    .selectFrom("bookings")
    .selectAll()
    .where("external_id", "in", externalIds)
    .orderBy("booking_date")
    .execute();
}

async function bookingCount() {
  const row = await database.current.db
    .selectFrom("bookings")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("the Cal.com receiver", () => {
  it("answers 404 while no secret is configured, and stores nothing", async () => {
    vi.stubEnv("CAL_COM_WEBHOOK_SECRET", "");
    const before = await bookingCount();
    const response = await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: uid() })));
    expect(response.status).toBe(404);
    expect(await bookingCount()).toBe(before);
  });

  it("answers 405 to anything but POST", async () => {
    const response = await callRoute(calComLoader, CAL_COM_URL);
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });

  it.each([
    ["a missing signature", null],
    ["Cal.com's no-secret-provided", "no-secret-provided"],
    ["a wrong signature", "0".repeat(64)],
    ["a signature under another secret", "another"],
    ["a signature that is not hex", "z".repeat(64)],
  ])("refuses %s with 401 and stores nothing", async (_label, signature) => {
    const body = calComBody("cal-com-booking-created", {}, { uid: uid() });
    const raw = JSON.stringify(body);
    const header =
      signature === "another"
        ? (await import("~/features/bookings/webhook-signatures.server")).signCalCom(raw, "another-secret-123")
        : signature;
    const before = await bookingCount();
    const response = await postCalCom(calComRequest(raw, header));
    expect(response.status).toBe(401);
    expect(await bookingCount()).toBe(before);
  });

  it("refuses a signature of other bytes than the ones sent (re-encoded JSON)", async () => {
    const body = calComBody("cal-com-booking-created", {}, { uid: uid() });
    const signedPretty = calComRequest(JSON.stringify(body, null, 2));
    const response = await postCalCom({ body: JSON.stringify(body), headers: signedPretty.headers });
    expect(response.status).toBe(401);
  });

  it("answers 413 to a body over 256 KB, declared or streamed, and stores nothing", async () => {
    const before = await bookingCount();
    const big = JSON.stringify(
      calComBody("cal-com-booking-created", {}, { uid: uid(), description: "x".repeat(300_000) }),
    );
    const declared = await postCalCom(calComRequest(big));
    expect(declared.status).toBe(413);

    const bytes = new TextEncoder().encode(big);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16_384) controller.enqueue(bytes.slice(i, i + 16_384));
        controller.close();
      },
    });
    const response = await callRoute(calComAction, CAL_COM_URL, {
      method: "POST",
      body: streamed,
      headers: calComRequest(big).headers,
    });
    expect(response.status).toBe(413);
    expect(await bookingCount()).toBe(before);
  });

  it("answers 400 to a signed body that is not JSON or not a booking, and stores nothing", async () => {
    const before = await bookingCount();
    expect((await postCalCom(calComRequest("{not json"))).status).toBe(400);
    expect((await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: 42 })))).status).toBe(400);
    expect(
      (await postCalCom(calComRequest(calComBody("cal-com-booking-created", { createdAt: "yesterday" })))).status,
    ).toBe(400);
    expect(await bookingCount()).toBe(before);
  });

  it("acknowledges other events with 200 and stores nothing", async () => {
    const before = await bookingCount();
    const response = await postCalCom(calComRequest(calComBody("cal-com-meeting-ended")));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: "ignored" });
    expect(await bookingCount()).toBe(before);
  });

  it("stores BOOKING_CREATED as confirmed, mapped and linked by the signed reference", async () => {
    const customer = await createUser(database.current.db, { email: `ref-${uid()}@example.com` });
    const id = uid();
    const body = calComBody(
      "cal-com-booking-created",
      {},
      { uid: id, metadata: { customer: createCustomerReference(customer.id) } },
    );
    const response = await postCalCom(calComRequest(body));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outcome: "created" });

    const [booking] = await bookingsWith([id]);
    expect(booking).toMatchObject({
      provider: "cal_com",
      status: "confirmed",
      service_type: "Weekly Service",
      customer_id: customer.id,
      attendee_email: "pat@example.com",
      event_type: "weekly-cleanup",
      source: "calendar",
    });
    expect(booking.booking_date.toISOString()).toBe("2026-12-01T16:00:00.000Z");
    expect(booking.ends_at?.toISOString()).toBe("2026-12-01T16:30:00.000Z");
    // The customer's dashboard list (the spec's query) now holds it.
    expect((await listRecentBookingsForCustomer(customer.id)).map((b) => b.external_id)).toEqual([id]);
  });

  it("stores a PENDING BOOKING_CREATED and a BOOKING_REQUESTED as pending; a later confirmation confirms", async () => {
    const [a, b] = [uid(), uid()];
    await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: a, status: "PENDING" })));
    await postCalCom(calComRequest(calComBody("cal-com-booking-requested", {}, { uid: b })));
    expect((await bookingsWith([a, b])).map((row) => row.status)).toEqual(["pending", "pending"]);

    const confirmed = calComBody("cal-com-booking-created", { createdAt: "2026-11-20T18:00:00.000Z" }, { uid: b });
    expect(await (await postCalCom(calComRequest(confirmed))).json()).toMatchObject({ outcome: "updated" });
    expect((await bookingsWith([b]))[0].status).toBe("confirmed");
  });

  it("turns BOOKING_RESCHEDULED into a rescheduled old booking and a new one for the same customer", async () => {
    const customer = await createUser(database.current.db, { email: `resched-${uid()}@example.com` });
    const [oldId, newId] = [uid("old"), uid("new")];
    await postCalCom(
      calComRequest(
        calComBody(
          "cal-com-booking-created",
          {},
          { uid: oldId, metadata: { customer: createCustomerReference(customer.id) } },
        ),
      ),
    );
    // The reschedule carries no reference of its own: the new booking inherits the old one's customer.
    const response = await postCalCom(
      calComRequest(calComBody("cal-com-booking-rescheduled", {}, { uid: newId, rescheduleUid: oldId, metadata: {} })),
    );
    expect(response.status).toBe(200);
    const rows = await bookingsWith([oldId, newId]);
    expect(rows.map((row) => [row.external_id, row.status, row.customer_id])).toEqual([
      [oldId, "rescheduled", customer.id],
      [newId, "confirmed", customer.id],
    ]);
    expect(rows[1].booking_date.toISOString()).toBe("2026-12-03T17:00:00.000Z");
    expect(rows[1].rescheduled_from).toBe(oldId);
  });

  it("stores a reschedule whose old booking never reached us", async () => {
    const newId = uid("new");
    const response = await postCalCom(
      calComRequest(calComBody("cal-com-booking-rescheduled", {}, { uid: newId, rescheduleUid: uid("never") })),
    );
    expect(response.status).toBe(200);
    expect((await bookingsWith([newId])).map((row) => row.status)).toEqual(["confirmed"]);
  });

  it("cancels on BOOKING_CANCELLED and BOOKING_REJECTED; requestReschedule shows Reschedule requested", async () => {
    const [a, b, c] = [uid(), uid(), uid()];
    for (const id of [a, b, c]) await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: id })));
    await postCalCom(calComRequest(calComBody("cal-com-booking-cancelled", {}, { uid: a })));
    await postCalCom(calComRequest(calComBody("cal-com-booking-cancelled", {}, { uid: b, requestReschedule: true })));
    await postCalCom(calComRequest(calComBody("cal-com-booking-rejected", {}, { uid: c })));
    const rows = await bookingsWith([a, b, c]);
    expect(Object.fromEntries(rows.map((row) => [row.external_id, row.status]))).toEqual({
      [a]: "cancelled",
      [b]: "reschedule_requested",
      [c]: "cancelled",
    });
  });

  it("changes nothing when the same delivery arrives twice", async () => {
    const id = uid();
    const request = calComRequest(calComBody("cal-com-booking-created", {}, { uid: id }));
    expect(await (await postCalCom(request)).json()).toMatchObject({ outcome: "created" });
    const [first] = await bookingsWith([id]);
    const replay = await postCalCom(request);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ outcome: "stale" });
    expect(await bookingsWith([id])).toEqual([first]);
  });

  it("never lets an older delivery overwrite newer state (out of order)", async () => {
    const id = uid();
    // The cancellation (newer) arrives first, then the creation (older).
    await postCalCom(calComRequest(calComBody("cal-com-booking-cancelled", {}, { uid: id })));
    const late = await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: id })));
    expect(await late.json()).toMatchObject({ outcome: "stale" });
    expect((await bookingsWith([id]))[0].status).toBe("cancelled");

    // A reschedule that overtook the old booking's creation: the old one ends rescheduled.
    const [oldId, newId] = [uid("old"), uid("new")];
    await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: oldId })));
    await postCalCom(
      calComRequest(calComBody("cal-com-booking-rescheduled", {}, { uid: newId, rescheduleUid: oldId })),
    );
    await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: oldId })));
    expect((await bookingsWith([oldId, newId])).map((row) => row.status)).toEqual(["rescheduled", "confirmed"]);
  });

  it("files an event type without a mapping under Other", async () => {
    const id = uid();
    await postCalCom(
      calComRequest(
        calComBody("cal-com-booking-created", {}, { uid: id, type: "fence-painting", title: "Fence painting" }),
      ),
    );
    expect((await bookingsWith([id]))[0].service_type).toBe("Other");
  });

  it("trusts a reference only when it verifies: forged, expired and unknown ones leave the booking unlinked", async () => {
    const customer = await createUser(database.current.db, { email: `forged-${uid()}@example.com` });
    const valid = createCustomerReference(customer.id);
    const forged = `${valid.split(".").slice(0, 2).join(".")}.${"A".repeat(32)}`;
    const expired = createCustomerReference(customer.id, Date.now() - 8 * 24 * 60 * 60 * 1000);
    const stranger = createCustomerReference("00000000-0000-4000-8000-000000000000");
    const ids = [uid(), uid(), uid(), uid()];
    for (const [i, reference] of [forged, expired, stranger, customer.id].entries()) {
      // Even with the customer's own e-mail: without users.email_verified_at nobody is verified.
      await postCalCom(
        calComRequest(
          calComBody(
            "cal-com-booking-created",
            {},
            { uid: ids[i], metadata: { customer: reference }, attendees: [{ email: customer.email, name: "X" }] },
          ),
        ),
      );
    }
    expect((await bookingsWith(ids)).map((row) => row.customer_id)).toEqual([null, null, null, null]);
  });

  it("writes one log line per delivery with ids only", async () => {
    vi.stubEnv("LOG_LEVEL", "info");
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const id = uid();
    await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: id })));
    await postCalCom(calComRequest(calComBody("cal-com-booking-created", {}, { uid: id }), "0".repeat(64)));
    const deliveries = lines
      .map((line) => JSON.parse(line))
      .filter((line) => line.event === "booking_webhook.delivery");
    expect(deliveries).toEqual([
      expect.objectContaining({
        provider: "cal_com",
        trigger: "BOOKING_CREATED",
        outcome: "created",
        externalId: id,
        httpStatus: 200,
      }),
      expect.objectContaining({ provider: "cal_com", outcome: "bad_signature", httpStatus: 401 }),
    ]);
    expect(deliveries[0]).toMatchObject({ event: "booking_webhook.delivery" });
    expect(lines.join("\n")).not.toContain("pat@example.com");
    expect(lines.join("\n")).not.toContain("Pat Example");
  });
});

describe("the Calendly receiver", () => {
  const inviteeUri = () => `https://api.calendly.com/scheduled_events/${uid("EV")}/invitees/${uid("IN")}`;

  it("answers 404 while no signing key is configured", async () => {
    vi.stubEnv("CALENDLY_WEBHOOK_SIGNING_KEY", "");
    const response = await postCalendly(calendlyRequest(calendlyBody("calendly-invitee-created")));
    expect(response.status).toBe(404);
  });

  it("stores invitee.created as confirmed, linked by utm_content and mapped by the event name", async () => {
    const customer = await createUser(database.current.db, { email: `cly-${uid()}@example.com` });
    const uri = inviteeUri();
    const body = calendlyBody(
      "calendly-invitee-created",
      {},
      {
        uri,
        tracking: { utm_content: createCustomerReference(customer.id), utm_source: null },
      },
    );
    const response = await postCalendly(calendlyRequest(body));
    expect(response.status).toBe(200);
    const [booking] = await bookingsWith([uri]);
    expect(booking).toMatchObject({
      provider: "calendly",
      status: "confirmed",
      customer_id: customer.id,
      service_type: "Weekly Service",
      attendee_email: "pat@example.com",
    });
    expect(booking.booking_date.toISOString()).toBe("2026-12-01T16:00:00.000Z");
  });

  it("cancels on invitee.canceled; a reschedule is a rescheduled cancel plus a create", async () => {
    const [cancelled, oldUri, newUri] = [inviteeUri(), inviteeUri(), inviteeUri()];
    await postCalendly(calendlyRequest(calendlyBody("calendly-invitee-created", {}, { uri: cancelled })));
    await postCalendly(calendlyRequest(calendlyBody("calendly-invitee-canceled", {}, { uri: cancelled })));

    await postCalendly(calendlyRequest(calendlyBody("calendly-invitee-created", {}, { uri: oldUri })));
    await postCalendly(
      calendlyRequest(
        calendlyBody(
          "calendly-invitee-canceled",
          { created_at: "2026-11-21T09:15:00.000000Z" },
          {
            uri: oldUri,
            rescheduled: true,
            new_invitee: newUri,
          },
        ),
      ),
    );
    await postCalendly(
      calendlyRequest(
        calendlyBody(
          "calendly-invitee-created",
          { created_at: "2026-11-21T09:15:00.500000Z" },
          { uri: newUri, old_invitee: oldUri },
          { start_time: "2026-12-03T17:00:00.000000Z" },
        ),
      ),
    );
    const rows = await bookingsWith([cancelled, oldUri, newUri]);
    expect(Object.fromEntries(rows.map((row) => [row.external_id, row.status]))).toEqual({
      [cancelled]: "cancelled",
      [oldUri]: "rescheduled",
      [newUri]: "confirmed",
    });
  });

  it.each([
    ["a missing signature", () => null],
    ["a wrong v1", () => `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`],
    ["a malformed header", () => "v1=abc"],
  ])("refuses %s with 401 and stores nothing", async (_label, header) => {
    const before = await bookingCount();
    const response = await postCalendly(
      calendlyRequest(calendlyBody("calendly-invitee-created", {}, { uri: inviteeUri() }), header()),
    );
    expect(response.status).toBe(401);
    expect(await bookingCount()).toBe(before);
  });

  it("refuses a signature more than three minutes old with 401", async () => {
    const before = await bookingCount();
    const body = calendlyBody("calendly-invitee-created", {}, { uri: inviteeUri() });
    const stale = calendlyRequest(body, "sign", Date.now() - 4 * 60 * 1000);
    expect((await postCalendly(stale)).status).toBe(401);
    const recent = calendlyRequest(body, "sign", Date.now() - 2 * 60 * 1000);
    expect((await postCalendly(recent)).status).toBe(200);
    expect(await bookingCount()).toBe(before + 1);
  });

  it("changes nothing on a replay and acknowledges other events", async () => {
    const uri = inviteeUri();
    const request = calendlyRequest(calendlyBody("calendly-invitee-created", {}, { uri }));
    await postCalendly(request);
    const [first] = await bookingsWith([uri]);
    expect(await (await postCalendly(request)).json()).toMatchObject({ outcome: "stale" });
    expect(await bookingsWith([uri])).toEqual([first]);

    const before = await bookingCount();
    const other = await postCalendly(calendlyRequest(calendlyBody("calendly-routing-form-submission")));
    expect(other.status).toBe(200);
    expect(await bookingCount()).toBe(before);
  });
});
