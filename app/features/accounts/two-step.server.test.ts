import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { completeSecondStep, formPost, get, settle, setCookie } from "../../../tests/helpers/auth-requests";
import { createUser } from "../../../tests/helpers/factories";
import { totpForStep, totpStep } from "../../../tests/helpers/totp";
import {
  completeEnrolment,
  describeSetupKey,
  disableTwoStep,
  isTwoStepEnabled,
  MAX_WRONG_CODES,
  newSetupKey,
  RECOVERY_CODE_COUNT,
  SECOND_STEP_LIMIT,
  verifySecondStep,
} from "./two-step.server";
import { getOptionalUser, hasStaffSession } from "./auth.server";
import { action as signInAction } from "~/routes/auth";
import { loader as verifyLoader } from "~/routes/auth_.verify";

const database = useAppDatabase();
const STEP_MS = 30_000;
let now = 0;
let ipCounter = 0;

// A fixed clock, 10 s into a 30-second step (near the real time: the database's now() decides
// expiry of challenges, so the clock must not be far from it).
beforeEach(() => {
  now = Math.floor(Date.now() / STEP_MS) * STEP_MS + 10_000;
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now);
});
afterEach(() => {
  vi.useRealTimers();
});

const codeAt = (secret: string, offsetSteps: number) => totpForStep(secret, totpStep(now) + offsetSteps);

async function enrolled() {
  const user = await createUser(database.current.db);
  const secret = await newSetupKey();
  const enrolment = await completeEnrolment(user.id, secret, codeAt(secret, 0), null);
  expect(enrolment?.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
  return { user, secret, recoveryCodes: enrolment!.recoveryCodes };
}

describe("enrolment", () => {
  it("offers a QR code and a setup key, and turns on only with a right code", async () => {
    const user = await createUser(database.current.db);
    const setup = await describeSetupKey(user, await newSetupKey());
    expect(setup.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(setup.otpauthUri).toContain("algorithm=SHA1");
    expect(setup.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    // Each key is new, and describing one stores nothing.
    expect(await newSetupKey()).not.toBe(setup.secret);
    expect(await database.current.db.selectFrom("user_totp").where("user_id", "=", user.id).execute()).toHaveLength(0);

    expect(await completeEnrolment(user.id, setup.secret, "000000", null)).toBeNull();
    expect(await isTwoStepEnabled(user.id)).toBe(false);
    const enrolment = await completeEnrolment(user.id, setup.secret, codeAt(setup.secret, 0), null);
    const codes = enrolment?.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(await isTwoStepEnabled(user.id)).toBe(true);
    // Stored hashed only.
    const stored = await database.current.db
      .selectFrom("recovery_codes")
      .select("code_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(stored).toHaveLength(10);
    for (const code of codes!) expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));
    // On once: a second enrolment (another key) changes nothing.
    const other = await newSetupKey();
    expect(await completeEnrolment(user.id, other, codeAt(other, 1), null)).toBeNull();
    expect(await verifySecondStep(user.id, codeAt(setup.secret, 1))).toBe(true);
  });
});

describe("codes", () => {
  it("accepts one step of drift either way, not two", async () => {
    const { user, secret } = await enrolled();
    // The enrolment used step 0; later steps follow.
    vi.setSystemTime((now += STEP_MS * 3));
    expect(await verifySecondStep(user.id, codeAt(secret, -2))).toBe(false);
    expect(await verifySecondStep(user.id, codeAt(secret, 2))).toBe(false);
    expect(await verifySecondStep(user.id, codeAt(secret, -1))).toBe(true);
    expect(await verifySecondStep(user.id, codeAt(secret, 1))).toBe(true);
  });

  it("never accepts a code twice, nor an older one after a newer", async () => {
    const { user, secret } = await enrolled();
    vi.setSystemTime((now += STEP_MS * 5));
    const code = codeAt(secret, 0);
    expect(await verifySecondStep(user.id, code)).toBe(true);
    expect(await verifySecondStep(user.id, code)).toBe(false);
    expect(await verifySecondStep(user.id, codeAt(secret, -1))).toBe(false);
    // Two requests racing with the next code: exactly one wins.
    const next = codeAt(secret, 1);
    const results = await Promise.all([verifySecondStep(user.id, next), verifySecondStep(user.id, next)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("takes each recovery code once, typed in any case with or without the dash", async () => {
    const { user, recoveryCodes } = await enrolled();
    expect(await verifySecondStep(user.id, ` ${recoveryCodes[0].toUpperCase()} `)).toBe(true);
    expect(await verifySecondStep(user.id, recoveryCodes[0])).toBe(false);
    expect(await verifySecondStep(user.id, recoveryCodes[1].replace("-", ""))).toBe(true);
    expect(await verifySecondStep(user.id, "abcde-12345")).toBe(false);
  });

  it("turns off only with a current code", async () => {
    const { user, secret } = await enrolled();
    vi.setSystemTime((now += STEP_MS * 2));
    expect(await disableTwoStep(user.id, "123456", null)).toEqual({ status: "wrong" });
    expect(await isTwoStepEnabled(user.id)).toBe(true);
    expect(await disableTwoStep(user.id, codeAt(secret, 0), null)).toEqual({ status: "right" });
    expect(await isTwoStepEnabled(user.id)).toBe(false);
    expect(
      await database.current.db.selectFrom("recovery_codes").where("user_id", "=", user.id).execute(),
    ).toHaveLength(0);
  });
});

describe("sign-in with two-step", () => {
  const firstStep = (email: string, password: string) =>
    settle(() =>
      signInAction({
        request: formPost("/auth", { intent: "signin", email, password }, { ip: `192.0.2.${++ipCounter}` }),
        params: {},
        context: {},
      }),
    );
  const sessionCount = async (userId: string) =>
    (await database.current.db.selectFrom("sessions").where("user_id", "=", userId).execute()).length;

  it("creates no session until the code is right", async () => {
    const { user, secret } = await enrolled();
    vi.setSystemTime((now += STEP_MS));
    const first = await firstStep(user.email, user.password);
    expect(first.headers.get("Location")).toBe("/auth/verify");
    expect(await sessionCount(user.id)).toBe(0);
    const challenge = setCookie(first, "__two_step")!;
    expect(
      (
        await settle(() =>
          verifyLoader({ request: get("/auth/verify", { cookie: challenge }), params: {}, context: {} }),
        )
      ).status,
    ).toBe(200);

    // No code: the schema's message (the browser script shows the same before posting).
    const blank = await completeSecondStep(first, secret, { code: "   " });
    expect(blank.status).toBe(400);
    expect((await blank.json()).result.error).toEqual({ code: ["Enter the code from your authenticator app."] });

    const wrong = await completeSecondStep(first, secret, { code: "000000" });
    expect(wrong.status).toBe(400);
    const wrongBody = await wrong.json();
    expect(wrongBody.result.error).toEqual({ code: ["That code is not right. Please try again."] });
    // The code is never sent back.
    expect(wrongBody.result.initialValue).toEqual({});
    expect(await sessionCount(user.id)).toBe(0);

    const done = await completeSecondStep(first, secret);
    expect(done.headers.get("Location")).toBe("/customer-dashboard");
    expect((await getOptionalUser(get("/", { cookie: setCookie(done, "__session") }), {}))?.id).toBe(user.id);
    expect(await sessionCount(user.id)).toBe(1);
    // The challenge is spent: the same cookie cannot sign in again.
    const replay = await completeSecondStep(first, secret, { code: codeAt(secret, 1) });
    expect(replay.headers.get("Location")).toBe("/auth");
    expect(await sessionCount(user.id)).toBe(1);
  });

  it(`sends the visitor back to the start after ${MAX_WRONG_CODES} wrong codes`, async () => {
    const { user, secret } = await enrolled();
    vi.setSystemTime((now += STEP_MS));
    const first = await firstStep(user.email, user.password);
    for (let i = 1; i < MAX_WRONG_CODES; i++) {
      expect((await completeSecondStep(first, secret, { code: String(100000 + i) })).status).toBe(400);
    }
    const fifth = await completeSecondStep(first, secret, { code: "999999" });
    expect(fifth.status).toBe(302);
    expect(fifth.headers.get("Location")).toBe("/auth");
    // Even the right code is too late now.
    const late = await completeSecondStep(first, secret);
    expect(late.headers.get("Location")).toBe("/auth");
    expect(await sessionCount(user.id)).toBe(0);
    expect(
      await database.current.db.selectFrom("sign_in_challenges").where("user_id", "=", user.id).execute(),
    ).toHaveLength(0);
  });

  const wrongCodes = (count: number) => Array.from({ length: count }, (_, i) => String(100000 + i));
  const limitCount = async (userId: string) =>
    (
      await database.current.db
        .selectFrom("rate_limits")
        .select("hits")
        .where("key", "=", `two-step:user:${userId}`)
        .executeTakeFirst()
    )?.hits ?? 0;

  it(`refuses the ${SECOND_STEP_LIMIT.limit + 1}th wrong code over fresh challenges, and then even the right one`, async () => {
    const { user, secret } = await enrolled();
    vi.setSystemTime((now += STEP_MS));
    // The attack: a fresh challenge (the right password) for every code.
    for (const code of wrongCodes(SECOND_STEP_LIMIT.limit)) {
      const answer = await completeSecondStep(await firstStep(user.email, user.password), secret, { code });
      expect(answer.status).toBe(400);
    }
    const eleventh = await completeSecondStep(await firstStep(user.email, user.password), secret, { code: "999999" });
    expect(eleventh.status).toBe(429);
    const refused = (await eleventh.json()) as { result: { error?: Record<string, string[]> } };
    expect(refused.result.error).toEqual({ code: ["Too many attempts. Try again in 15 minutes."] });
    const right = await completeSecondStep(await firstStep(user.email, user.password), secret);
    expect(right.status).toBe(429);
    expect(setCookie(right, "__session")).toBeUndefined();
    expect(await sessionCount(user.id)).toBe(0);
    // The code was never checked: it was not spent either.
    expect(await limitCount(user.id)).toBe(SECOND_STEP_LIMIT.limit + 2);
  });

  it(`counts ${SECOND_STEP_LIMIT.limit + 1} wrong codes posted in parallel: one is refused unchecked`, async () => {
    const { user, secret } = await enrolled();
    vi.setSystemTime((now += STEP_MS));
    const challenges = await Promise.all([1, 2, 3].map(() => firstStep(user.email, user.password)));
    const answers = await Promise.all(
      wrongCodes(SECOND_STEP_LIMIT.limit + 1).map((code, i) => completeSecondStep(challenges[i % 3], secret, { code })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(SECOND_STEP_LIMIT.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const after = await completeSecondStep(await firstStep(user.email, user.password), secret);
    expect(after.status).toBe(429);
    expect(await sessionCount(user.id)).toBe(0);
  });

  it("lets the owner in once the window has passed", async () => {
    const { user, secret } = await enrolled();
    for (const code of wrongCodes(SECOND_STEP_LIMIT.limit + 1)) {
      await completeSecondStep(await firstStep(user.email, user.password), secret, { code });
    }
    // The window started 15 minutes ago by the database's clock, which decides. (This test's fixed
    // clock may be up to 10 s ahead of the database's: a window set from it had not always passed.)
    await database.current.db
      .updateTable("rate_limits")
      .set({ window_started_at: sql<Date>`now() - ${SECOND_STEP_LIMIT.windowMs + 1000} * interval '1 millisecond'` })
      .where("key", "=", `two-step:user:${user.id}`)
      .execute();
    vi.setSystemTime((now += STEP_MS));
    const done = await completeSecondStep(await firstStep(user.email, user.password), secret);
    expect(done.headers.get("Location")).toBe("/customer-dashboard");
    expect(await sessionCount(user.id)).toBe(1);
  });

  it("records the second step on the session, never before two-step was on (a clock behind the database's too)", async () => {
    const { user, secret } = await enrolled();
    // The database's clock (which wrote enabled_at) two minutes ahead of this machine's.
    await database.current.db
      .updateTable("user_totp")
      .set({ enabled_at: sql<Date>`now() + interval '2 minutes'` })
      .where("user_id", "=", user.id)
      .execute();
    vi.setSystemTime((now += STEP_MS));
    await database.current.db.insertInto("user_roles").values({ user_id: user.id, role: "owner" }).execute();
    const done = await completeSecondStep(await firstStep(user.email, user.password), secret);
    const signedIn = await getOptionalUser(get("/", { cookie: setCookie(done, "__session") }), {});
    expect(signedIn?.secondStepPassed).toBe(true);
    expect(signedIn && hasStaffSession(signedIn)).toBe(true);
    // Turned off and on again later: that session's second step no longer counts.
    await database.current.db
      .updateTable("user_totp")
      .set({ enabled_at: new Date(Date.now() + 60 * 60_000) })
      .where("user_id", "=", user.id)
      .execute();
    const later = await getOptionalUser(get("/", { cookie: setCookie(done, "__session") }), {});
    expect(later?.secondStepPassed).toBe(false);
    expect(later && hasStaffSession(later)).toBe(false);
  });

  it("refuses /auth/verify without a challenge", async () => {
    const response = await settle(() => verifyLoader({ request: get("/auth/verify"), params: {}, context: {} }));
    expect(response.headers.get("Location")).toBe("/auth");
  });
});
