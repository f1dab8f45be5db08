import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useAppDatabase } from "../../../tests/helpers/app-database";
import { completeSecondStep, formPost, get, settle, setCookie } from "../../../tests/helpers/auth-requests";
import { createUser } from "../../../tests/helpers/factories";
import { totpForStep, totpStep } from "../../../tests/helpers/totp";
import {
  completeEnrolment,
  disableTwoStep,
  isTwoStepEnabled,
  MAX_WRONG_CODES,
  RECOVERY_CODE_COUNT,
  startEnrolment,
  verifySecondStep,
} from "./two-step.server";
import { getOptionalUser } from "./auth.server";
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
  const setup = await startEnrolment(user);
  expect(setup).not.toBeNull();
  const codes = await completeEnrolment(user.id, codeAt(setup!.secret, 0));
  expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
  return { user, secret: setup!.secret, recoveryCodes: codes! };
}

describe("enrolment", () => {
  it("offers a QR code and a setup key, and turns on only with a right code", async () => {
    const user = await createUser(database.current.db);
    const setup = await startEnrolment(user);
    expect(setup!.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(setup!.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(setup!.otpauthUri).toContain("algorithm=SHA1");
    expect(setup!.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    // The same pending secret until it is turned on (a reload must not change the QR code).
    expect((await startEnrolment(user))!.secret).toBe(setup!.secret);

    expect(await completeEnrolment(user.id, "000000")).toBeNull();
    expect(await isTwoStepEnabled(user.id)).toBe(false);
    const codes = await completeEnrolment(user.id, codeAt(setup!.secret, 0));
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
    expect(await startEnrolment(user)).toBeNull();
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
    expect(await disableTwoStep(user.id, "123456")).toBe(false);
    expect(await isTwoStepEnabled(user.id)).toBe(true);
    expect(await disableTwoStep(user.id, codeAt(secret, 0))).toBe(true);
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

  it("refuses /auth/verify without a challenge", async () => {
    const response = await settle(() => verifyLoader({ request: get("/auth/verify"), params: {}, context: {} }));
    expect(response.headers.get("Location")).toBe("/auth");
  });
});
