import { parseWithZod } from "@conform-to/zod";
import { beforeEach, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { formPost, get, settle, setCookie, toastOf } from "../helpers/auth-requests";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { useTestSmtp } from "../helpers/smtp-server";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { RESET_REQUESTED_MESSAGE } from "~/features/accounts/account-constants";
import { ForgotPasswordSchema, ResetPasswordSchema } from "~/features/accounts/auth-schemas";
import { action as signInAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/auth_.forgot-password";
import { action as resetAction, loader as resetLoader } from "~/routes/auth_.reset-password";

const database = useAppDatabase();
const smtp = useTestSmtp("Accounts <accounts@example.com>");
let ipCounter = 0;
const freshIp = () => `198.51.100.${++ipCounter}`;

beforeEach(() => {});

const forgot = (email: string, ip = freshIp()) =>
  settle(() =>
    forgotAction({ request: formPost("/auth/forgot-password", { email }, { ip }), params: {}, context: {} }),
  );
const openReset = (token: string) =>
  settle(() =>
    resetLoader({ request: get(`/auth/reset-password?token=${encodeURIComponent(token)}`), params: {}, context: {} }),
  );
const reset = (token: string, password: string) =>
  settle(() =>
    resetAction({ request: formPost("/auth/reset-password", { token, password }), params: {}, context: {} }),
  );
const signIn = (email: string, password: string) =>
  settle(() =>
    signInAction({
      request: formPost("/auth", { intent: "signin", email, password }, { ip: freshIp() }),
      params: {},
      context: {},
    }),
  );

function formDataOf(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return formData;
}

/** The token of the reset link in the last e-mail sent to `to`. */
async function resetTokenFromMail(to: string, count: number) {
  const messages = await smtp.current.waitForMessages(count);
  const mail = messages.filter((m) => m.text?.includes("/auth/reset-password")).at(-1);
  expect(mail?.subject).toBe("Reset your password");
  expect(JSON.stringify(mail?.to)).toContain(to);
  const link = /(http\S+\/auth\/reset-password\?token=\S+)/.exec(mail?.text ?? "")?.[1];
  expect(link).toBeTruthy();
  return new URL(link!).searchParams.get("token")!;
}

const tokenRows = (userId: string) =>
  database.current.db.selectFrom("account_tokens").selectAll().where("user_id", "=", userId).execute();

describe("forgot password", () => {
  it("answers the same for a known and an unknown address, and mails only the known one", async () => {
    const user = await createUser(database.current.db, { verified: false });
    const known = await forgot(user.email);
    const unknown = await forgot("nobody-here@example.com");
    for (const response of [known, unknown]) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ sent: true });
    }
    expect(RESET_REQUESTED_MESSAGE).toBe(
      "If an account exists for that address, we've sent a link to reset the password.",
    );
    await resetTokenFromMail(user.email, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.current.messages).toHaveLength(1);
    // Stored hashed: the token in the mail is not in the database.
    const rows = await tokenRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a missing or malformed address with the schema's message (the browser's too), mailing nothing", async () => {
    for (const [email, message] of [
      ["", "Email is required"],
      ["nobody@", "Enter a valid email address"],
      [`${"a".repeat(320)}@example.com`, "Email is too long"],
    ] as const) {
      const response = await forgot(email);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(body.sent).toBe(false);
      expect(body.result.error).toEqual({ email: [message] });
      const browser = parseWithZod(formDataOf({ email }), { schema: ForgotPasswordSchema });
      expect(browser.status === "success" ? null : browser.error?.email).toEqual([message]);
    }
    expect(smtp.current.messages).toHaveLength(0);
  });

  it("refuses a body that is not a form with 400", async () => {
    const request = new Request("http://localhost:3000/auth/forgot-password", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect((await settle(() => forgotAction({ request, params: {}, context: {} }))).status).toBe(400);
  });
});

describe("reset password", () => {
  it("changes the password once, verifies the address, ends every session, and lands on Sign In", async () => {
    const user = await createUser(database.current.db, { password: "old-password", verified: false });
    const sessions = [await sessionCookieFor(user.id), await sessionCookieFor(user.id)];
    await forgot(user.email);
    const token = await resetTokenFromMail(user.email, 1);

    expect(await (await openReset(token)).json()).toMatchObject({ token });
    const tooShort = await reset(token, "12345");
    expect(tooShort.status).toBe(400);
    expect((await tooShort.json()).result.error).toEqual({ password: ["Password must be at least 6 characters"] });
    const empty = await reset(token, "");
    const emptyBody = await empty.json();
    expect(emptyBody.result.error).toEqual({ password: ["Password is required"] });
    // The password is never sent back.
    expect(JSON.stringify(emptyBody.result.initialValue ?? {})).not.toContain("password");
    // The browser script checks with the same schema, so it says the same.
    for (const [password, message] of [
      ["12345", "Password must be at least 6 characters"],
      ["", "Password is required"],
    ]) {
      const browser = parseWithZod(formDataOf({ token, password }), { schema: ResetPasswordSchema });
      expect(browser.status === "success" ? null : browser.error?.password).toEqual([message]);
    }

    const done = await reset(token, "new-password");
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/auth");
    expect(await toastOf(done)).toMatchObject({
      type: "success",
      message: "Success",
      description: "Your password has been changed. You can now log in.",
    });
    for (const cookie of sessions) expect(await getOptionalUser(get("/", { cookie }), {})).toBeNull();
    const row = await database.current.db
      .selectFrom("users")
      .select("email_verified_at")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeInstanceOf(Date);

    expect((await signIn(user.email, "old-password")).status).toBe(401);
    const signedIn = await signIn(user.email, "new-password");
    expect(signedIn.status).toBe(302);
    expect(setCookie(signedIn, "__session")).toBeTruthy();

    // Single use: the same link again changes nothing.
    const opened = await openReset(token);
    expect(opened.status).toBe(410);
    // No form, so no browser script either.
    expect(await opened.json()).toEqual({ token: null, script: null });
    const again = await reset(token, "third-password");
    expect(again.status).toBe(410);
    expect((await signIn(user.email, "new-password")).status).toBe(302);
  });

  it("refuses an expired link and an unknown one, changing nothing", async () => {
    const user = await createUser(database.current.db, { password: "keep-password" });
    await forgot(user.email);
    const token = await resetTokenFromMail(user.email, 1);
    await database.current.db
      .updateTable("account_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", user.id)
      .execute();
    expect((await openReset(token)).status).toBe(410);
    expect((await reset(token, "changed-password")).status).toBe(410);
    expect((await reset("made-up-token", "changed-password")).status).toBe(410);
    expect((await signIn(user.email, "keep-password")).status).toBe(302);
  });

  it("a link lasts one hour", async () => {
    const user = await createUser(database.current.db);
    const before = Date.now();
    await forgot(user.email);
    const [row] = await tokenRows(user.id);
    const ttl = new Date(row.expires_at).getTime() - before;
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000 + 5_000);
    expect(row.purpose).toBe("reset-password");
  });
});
