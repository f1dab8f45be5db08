// Review requests (issue 37 item 4, decision 133): the one e-mail after the Nth completed visit,
// held in a week with a missed visit or a private note, never twice; and the private note itself.
import { sql } from "kysely";
import { beforeAll, beforeEach, describe, expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, toastOf } from "../helpers/route-calls";
import { getSiteSettings } from "~/content/content.server";
import { FEEDBACK_PER_DAY, queueReviewRequestIfDue, reviewSettings } from "~/features/reviews/review-requests.server";
import { applyVisitAction } from "~/features/visits/visit-workflow.server";
import { loader as adminCustomerLoader } from "~/routes/admin-dashboard.customers.$customerId";
import { action as feedbackAction, loader as feedbackLoader } from "~/routes/customer-dashboard_.feedback";

const database = useAppDatabase();
const db = () => database.current.db;
let admin: TestUser;
let customer: TestUser;
const NOW = new Date("2030-05-20T20:00:00Z");
const day = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  admin = await createUser(db(), { admin: true });
  customer = await createUser(db(), { fullName: "Carla Customer" });
});

beforeEach(async () => {
  await db().deleteFrom("outbox").execute();
  await db().deleteFrom("review_requests").execute();
  await db().deleteFrom("customer_feedback").execute();
  await db().deleteFrom("services").execute();
  await db().deleteFrom("yard_profiles").execute();
});

async function visit(daysBeforeNow: number, status: "scheduled" | "missed" = "scheduled") {
  return db()
    .insertInto("services")
    .values({
      customer_id: customer.id,
      service_type: "Weekly Service",
      service_date: new Date(NOW.getTime() - daysBeforeNow * day),
      status,
      ...(status === "missed" ? { missed_reason: "locked_gate" as const } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Completes a visit of `daysBeforeNow` days ago, as Today's "Mark Completed" does, at `now`. */
async function complete(daysBeforeNow: number, now = NOW) {
  const row = await visit(daysBeforeNow);
  const result = await applyVisitAction(row.id, { action: "complete" }, admin.id, now);
  expect(result.kind).toBe("done");
  return row.id;
}

const outboxOf = (kind: "review_request" | "customer_feedback") =>
  db().selectFrom("outbox").selectAll().where("kind", "=", kind).execute();

describe("the review request", () => {
  test("goes out once, with the third completion, holding both links; never with another", async () => {
    const { reviewRequests } = await getSiteSettings();
    expect(reviewRequests.afterCompletedVisits).toBe(3);
    expect(reviewRequests.reviewUrl).toMatch(/^https:\/\//);

    await complete(20);
    await complete(13);
    expect(await outboxOf("review_request")).toHaveLength(0);
    const third = await complete(6);
    const [request, ...more] = await outboxOf("review_request");
    expect(more).toHaveLength(0);
    expect(request.to_address).toBe(customer.email);
    expect(request.related_id).toBe(third);
    // The public review and the private note, side by side; no reward offered for a review.
    expect(request.text_body).toContain(reviewRequests.reviewUrl!);
    expect(request.text_body).toContain("/customer-dashboard/feedback");
    expect(request.text_body).not.toMatch(/discount|free|credit|reward|\$/i);
    expect(await db().selectFrom("review_requests").selectAll().execute()).toEqual([
      expect.objectContaining({ customer_id: customer.id, visit_id: third }),
    ]);
    // The completion e-mail is still the completion e-mail, and a fourth completion asks nothing.
    await complete(1);
    expect(await outboxOf("review_request")).toHaveLength(1);
    expect(await db().selectFrom("outbox").select("kind").where("kind", "=", "visit_completed").execute()).toHaveLength(
      4,
    );
  });

  test("is held in a week with a missed visit, and asked at a later completion", async () => {
    await complete(30);
    await complete(23);
    await visit(4, "missed");
    await complete(2);
    expect(await outboxOf("review_request")).toHaveLength(0);
    expect(await db().selectFrom("review_requests").selectAll().execute()).toHaveLength(0);
    // Eight days on, the miss is more than a week old: the next completion asks.
    await complete(-8, new Date(NOW.getTime() + 8 * day + 60_000));
    expect(await outboxOf("review_request")).toHaveLength(1);
  });

  test("is held in a week with a private note, and for a customer who turned visit e-mails off", async () => {
    await db()
      .insertInto("customer_feedback")
      .values({ customer_id: customer.id, message: "The gate was left open" })
      .execute();
    // created_at is the database clock's: moved into the visits' week by hand.
    await sql`update customer_feedback set created_at = ${new Date(NOW.getTime() - 3 * day)}`.execute(db());
    await complete(20);
    await complete(13);
    await complete(6);
    expect(await outboxOf("review_request")).toHaveLength(0);

    await db().deleteFrom("customer_feedback").execute();
    await db().insertInto("yard_profiles").values({ user_id: customer.id, notify_visit_emails: false }).execute();
    await complete(5);
    expect(await outboxOf("review_request")).toHaveLength(0);
    expect(await db().selectFrom("review_requests").selectAll().execute()).toHaveLength(0);
  });

  test("without a review link, nothing is asked; with fewer visits than the owner's number, nothing either", async () => {
    const { rules, context } = await reviewSettings();
    const row = await visit(1);
    await db().updateTable("services").set({ status: "completed", completed_at: NOW }).execute();
    for (let i = 0; i < 4; i++) {
      await db()
        .insertInto("services")
        .values({
          customer_id: customer.id,
          service_type: "Weekly Service",
          service_date: new Date(NOW.getTime() - (10 + i * 7) * day),
          status: "completed",
        })
        .execute();
    }
    const target = { id: row.id, customer_id: customer.id };
    expect(
      await queueReviewRequestIfDue(db(), target, customer.email, { ...rules, reviewUrl: null }, context, NOW),
    ).toBe(false);
    expect(
      await queueReviewRequestIfDue(db(), target, customer.email, { ...rules, afterCompletedVisits: 6 }, context, NOW),
    ).toBe(false);
    expect(await outboxOf("review_request")).toHaveLength(0);
    expect(
      await queueReviewRequestIfDue(db(), target, customer.email, { ...rules, afterCompletedVisits: 5 }, context, NOW),
    ).toBe(true);
    // Asked once, ever: the same call again (another completion at the same moment) asks nothing.
    expect(await queueReviewRequestIfDue(db(), target, customer.email, rules, context, NOW)).toBe(false);
    expect(await outboxOf("review_request")).toHaveLength(1);
  });
});

describe('"Tell us what to improve"', () => {
  const url = "/customer-dashboard/feedback";

  test("a signed-in customer's note is stored and e-mailed to the owner, who can reply to them", async () => {
    const cookie = await sessionCookieFor(customer.id);
    expect((await callRoute(feedbackLoader, url, { cookie })).status).toBe(200);
    const response = await callRoute(feedbackAction, url, {
      cookie,
      form: { message: "  Please close the side gate.  " },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/customer-dashboard");
    expect((await toastOf(response))?.type).toBe("success");
    const notes = await db().selectFrom("customer_feedback").selectAll().execute();
    expect(notes).toEqual([
      expect.objectContaining({ customer_id: customer.id, message: "Please close the side gate." }),
    ]);
    const [mail, ...more] = await outboxOf("customer_feedback");
    expect(more).toHaveLength(0);
    const { email: ownerEmail } = await getSiteSettings();
    expect(mail.to_address).toBe(ownerEmail);
    expect(mail.reply_to).toBe(customer.email);
    expect(mail.text_body).toContain("Please close the side gate.");
    expect(mail.text_body).toContain(`/admin-dashboard/customers/${customer.id}`);

    // The owner reads it on the customer's page too, beside whether a review was asked.
    const page = await callRoute(adminCustomerLoader, `/admin-dashboard/customers/${customer.id}`, {
      cookie: await sessionCookieFor(admin.id),
      params: { customerId: customer.id },
    });
    expect(page.status).toBe(200);
    const { feedback } = (await page.json()) as {
      feedback: { reviewRequestedOn: string | null; notes: { message: string }[] };
    };
    expect(feedback.reviewRequestedOn).toBeNull();
    expect(feedback.notes.map((note) => note.message)).toEqual(["Please close the side gate."]);
  });

  test("refused: anonymous, empty, too long, and past the day's limit; nothing stored for any", async () => {
    const anonymous = await callRoute(feedbackAction, url, { form: { message: "Hello" } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth/);
    const cookie = await sessionCookieFor(customer.id);
    expect((await callRoute(feedbackAction, url, { cookie, form: { message: "   " } })).status).toBe(400);
    expect((await callRoute(feedbackAction, url, { cookie, form: { message: "x".repeat(2001) } })).status).toBe(400);
    expect(await db().selectFrom("customer_feedback").selectAll().execute()).toHaveLength(0);
    expect(await outboxOf("customer_feedback")).toHaveLength(0);

    for (let i = 0; i < FEEDBACK_PER_DAY; i++) {
      expect((await callRoute(feedbackAction, url, { cookie, form: { message: `Note ${i}` } })).status).toBe(302);
    }
    const over = await callRoute(feedbackAction, url, { cookie, form: { message: "One more" } });
    expect(over.status).toBe(429);
    expect(await over.text()).toContain("Please call us at");
    expect(await db().selectFrom("customer_feedback").selectAll().execute()).toHaveLength(FEEDBACK_PER_DAY);
    expect(await outboxOf("customer_feedback")).toHaveLength(FEEDBACK_PER_DAY);
  });
});
