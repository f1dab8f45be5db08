import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action as calComAction } from "~/routes/resources.webhooks.cal-com";
import { action as calendlyAction } from "~/routes/resources.webhooks.calendly";
import { useAppDatabase } from "../helpers/app-database";
import { CAL_COM_SECRET, CALENDLY_KEY, calComRequest, calendlyRequest, fixture } from "../helpers/booking-webhooks";
import { callRoute } from "../helpers/route-calls";

/**
 * Bad bodies never make a 5xx: random bytes, random JSON, truncated and mutated fixtures, each
 * signed correctly (so they reach the parser and the database) or not at all. 1,000 in total.
 */

useAppDatabase();
beforeAll(() => {
  vi.stubEnv("CAL_COM_WEBHOOK_SECRET", CAL_COM_SECRET);
  vi.stubEnv("CALENDLY_WEBHOOK_SIGNING_KEY", CALENDLY_KEY);
});
afterAll(() => vi.unstubAllEnvs());

const FIXTURE_NAMES = [
  "cal-com-booking-created",
  "cal-com-booking-rescheduled",
  "cal-com-booking-cancelled",
  "calendly-invitee-created",
  "calendly-invitee-canceled",
];
const fixtureTexts = FIXTURE_NAMES.map((name) => JSON.stringify(fixture(name)));

/** Replaces the value at a random path of a fixture with a random JSON value. */
function mutate(doc: unknown, path: number[], value: unknown): unknown {
  if (path.length === 0 || doc === null || typeof doc !== "object") return value;
  const keys = Object.keys(doc);
  if (keys.length === 0) return value;
  const key = keys[path[0] % keys.length];
  const copy: Record<string, unknown> = Array.isArray(doc) ? ([...doc] as never) : { ...doc };
  copy[key] = mutate((doc as Record<string, unknown>)[key], path.slice(1), value);
  return copy;
}

const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }),
  fc.json().map((text) => text),
  fc
    .jsonValue()
    .map((value) =>
      JSON.stringify({ triggerEvent: "BOOKING_CREATED", createdAt: new Date(0).toISOString(), payload: value }),
    ),
  fc
    .jsonValue()
    .map((value) => JSON.stringify({ event: "invitee.created", created_at: "2026-01-01T00:00:00Z", payload: value })),
  fc
    .tuple(fc.nat({ max: fixtureTexts.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([i, cut]) => fixtureTexts[i].slice(0, Math.floor(fixtureTexts[i].length * cut))),
  fc
    .tuple(fc.nat({ max: fixtureTexts.length - 1 }), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.jsonValue())
    .map(([i, path, value]) => JSON.stringify(mutate(JSON.parse(fixtureTexts[i]), path, value))),
  fc.string({ unit: "binary", maxLength: 500 }),
);

describe("the webhook receivers under random and broken bodies", () => {
  it("answer 1,000 of them without a single 5xx", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(bodies, fc.boolean(), fc.constantFrom("cal_com", "calendly"), async (body, sign, provider) => {
        const request =
          provider === "cal_com"
            ? calComRequest(body, sign ? "sign" : null)
            : calendlyRequest(body, sign ? "sign" : null);
        const response = await callRoute(
          provider === "cal_com" ? calComAction : calendlyAction,
          "/resources/webhooks/x",
          {
            method: "POST",
            ...request,
          },
        );
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 1000 },
    );
    // The property only means something if bodies reached every stage: refused, unparsable, acknowledged.
    expect(statuses.get(401)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(200)).toBeGreaterThan(0);
  }, 240_000);
});
