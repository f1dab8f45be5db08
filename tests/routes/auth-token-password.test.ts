import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { formPost, get, settle } from "../helpers/auth-requests";
import { createUser } from "../helpers/factories";
import { createSetPasswordToken } from "~/features/accounts/account-invite.server";
import { createToken, hashToken } from "~/features/accounts/account-tokens.server";
import { verifyPassword } from "~/features/accounts/password.server";
import { insertAccountToken } from "~/models/account-token.server";
import { action as resetAction, loader as resetLoader } from "~/routes/auth_.reset-password";
import { action as setAction, loader as setLoader } from "~/routes/auth_.set-password";

/**
 * The two links that set a password share one workflow (token-password.server.ts, decision
 * 099): what each route's own tests do not reach. Each link opens only its own page, and a post
 * without JavaScript that the workflow refuses changes nothing.
 */
const database = useAppDatabase();
const db = () => database.current.db;

const pages = {
  "reset-password": { loader: resetLoader, action: resetAction },
  "set-password": { loader: setLoader, action: setAction },
} as const;
type Purpose = keyof typeof pages;

const open = (purpose: Purpose, token: string) =>
  settle(() =>
    pages[purpose].loader({
      request: get(`/auth/${purpose}?token=${encodeURIComponent(token)}`),
      params: {},
      context: {},
    }),
  );
const submit = (purpose: Purpose, fields: Record<string, string>) =>
  settle(() => pages[purpose].action({ request: formPost(`/auth/${purpose}`, fields), params: {}, context: {} }));

async function resetToken(userId: string) {
  const token = createToken();
  await insertAccountToken({
    userId,
    purpose: "reset-password",
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return token;
}

async function passwordHashOf(userId: string) {
  const row = await db().selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirstOrThrow();
  return row.password_hash;
}

describe("the links that set a password", () => {
  it("a reset link does not open the set-password page, nor an invite the reset page; both stay usable", async () => {
    const user = await createUser(db(), { password: "keep-password" });
    const reset = await resetToken(user.id);
    const invite = await createSetPasswordToken(db(), user.id);
    const before = await passwordHashOf(user.id);

    expect((await open("set-password", reset)).status).toBe(410);
    expect((await open("reset-password", invite)).status).toBe(410);
    const crossedSet = await submit("set-password", { token: reset, password: "changed-password" });
    expect(crossedSet.status).toBe(410);
    expect(await crossedSet.json()).toEqual({ expired: true });
    expect((await submit("reset-password", { token: invite, password: "changed-password" })).status).toBe(410);
    expect(await passwordHashOf(user.id)).toBe(before);

    // Neither was spent by the wrong page.
    expect((await open("reset-password", reset)).status).toBe(200);
    expect((await open("set-password", invite)).status).toBe(200);
    const tokens = await db().selectFrom("account_tokens").select("used_at").where("user_id", "=", user.id).execute();
    expect(tokens.map((row) => row.used_at)).toEqual([null, null]);
  });

  for (const purpose of ["reset-password", "set-password"] as const) {
    it(`${purpose}: a post with no token, an absurd one, or a bad password changes nothing and is never a 500`, async () => {
      const user = await createUser(db(), { password: "keep-password" });
      const token =
        purpose === "reset-password" ? await resetToken(user.id) : await createSetPasswordToken(db(), user.id);
      const before = await passwordHashOf(user.id);

      expect((await submit(purpose, { password: "a fine new password" })).status).toBe(410);
      expect((await submit(purpose, { token: "x".repeat(5000), password: "a fine new password" })).status).toBe(410);
      // A bad password is refused before the token is looked at: the link stays live.
      const short = await submit(purpose, { token, password: "12345" });
      expect(short.status).toBe(400);
      const body = await short.json();
      expect(body.expired).toBe(false);
      expect(body.result.error).toEqual({ password: ["Password must be at least 6 characters"] });
      expect(JSON.stringify(body)).not.toContain(token);
      const notAForm = new Request(`http://localhost:3000/auth/${purpose}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, password: "a fine new password" }),
      });
      expect((await settle(() => pages[purpose].action({ request: notAForm, params: {}, context: {} }))).status).toBe(
        400,
      );

      expect(await passwordHashOf(user.id)).toBe(before);
      expect((await open(purpose, token)).status).toBe(200);
      // Then the same form, posted right, sets the password.
      const done = await submit(purpose, { token, password: "a fine new password" });
      expect(done.status).toBe(302);
      expect(await verifyPassword("a fine new password", (await passwordHashOf(user.id))!)).toBe(true);
    });
  }
});
