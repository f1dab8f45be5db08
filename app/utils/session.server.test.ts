import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../tests/helpers/app-database";
import { createUser, sessionCookieFor } from "../../tests/helpers/factories";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { createUserSessionHeaders, getSession, getSessionStorage, getUserId } from "./session.server";

const database = useAppDatabase();
const requestWith = (cookie: string) => new Request("http://localhost/", { headers: { Cookie: cookie } });

describe("database sessions", () => {
  it("store only a signed id in the cookie and the user in a row", async () => {
    const user = await createUser(database.current.db);
    const headers = await createUserSessionHeaders(new Request("http://localhost/"), user.id);
    const setCookie = headers.get("Set-Cookie")!;
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toContain(user.id);
    const cookie = setCookie.split(";")[0];
    await expect(getUserId(requestWith(cookie))).resolves.toBe(user.id);
    const rows = await database.current.db.selectFrom("sessions").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
  });

  it("reject a tampered cookie", async () => {
    const user = await createUser(database.current.db);
    const cookie = await sessionCookieFor(user.id);
    const tampered = cookie.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    await expect(getUserId(requestWith(tampered))).resolves.toBeNull();
  });

  it("end when their row is deleted (sign-out makes a stolen cookie useless)", async () => {
    const user = await createUser(database.current.db);
    const cookie = await sessionCookieFor(user.id);
    const session = await getSession(requestWith(cookie));
    await getSessionStorage().destroySession(session);
    await expect(getUserId(requestWith(cookie))).resolves.toBeNull();
  });

  it("expire on the server whatever the cookie says", async () => {
    const user = await createUser(database.current.db);
    const cookie = await sessionCookieFor(user.id);
    await database.current.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", user.id)
      .execute();
    await expect(getUserId(requestWith(cookie))).resolves.toBeNull();
    const left = await database.current.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(left).toHaveLength(0);
  });

  it("get a new id at every sign-in and drop the previous one", async () => {
    const user = await createUser(database.current.db);
    const first = await sessionCookieFor(user.id);
    const second = (await createUserSessionHeaders(requestWith(first), user.id)).get("Set-Cookie")!.split(";")[0];
    expect(second).not.toBe(first);
    await expect(getUserId(requestWith(first))).resolves.toBeNull();
    await expect(getUserId(requestWith(second))).resolves.toBe(user.id);
  });

  it("tell admins from customers", async () => {
    const admin = await createUser(database.current.db, { admin: true });
    const customer = await createUser(database.current.db);
    expect((await getOptionalUser(requestWith(await sessionCookieFor(admin.id)), {}))?.isStaff).toBe(true);
    expect((await getOptionalUser(requestWith(await sessionCookieFor(customer.id)), {}))?.isStaff).toBe(false);
    expect(await getOptionalUser(new Request("http://localhost/"), {})).toBeNull();
  });
});

describe("purgeExpiredSessions", () => {
  it("deletes expired rows and keeps live ones", async () => {
    const { purgeExpiredSessions } = await import("./session.server");
    const expired = await createUser(database.current.db);
    const live = await createUser(database.current.db);
    await sessionCookieFor(expired.id);
    const liveCookie = await sessionCookieFor(live.id);
    await database.current.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", expired.id)
      .execute();
    expect(await purgeExpiredSessions()).toBeGreaterThanOrEqual(1);
    const left = await database.current.db
      .selectFrom("sessions")
      .select("user_id")
      .where("user_id", "in", [expired.id, live.id])
      .execute();
    expect(left).toEqual([{ user_id: live.id }]);
    await expect(getUserId(requestWith(liveCookie))).resolves.toBe(live.id);
  });

  it("deletes anonymous sessions older than 10 minutes, whatever their expiry", async () => {
    const { purgeExpiredSessions } = await import("./session.server");
    const db = database.current.db;
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const inDays = new Date(Date.now() + 20 * 24 * 60 * 60 * 1000);
    await db
      .insertInto("sessions")
      .values([
        { id: "anon-old", user_id: null, data: "{}", expires_at: inDays, created_at: hourAgo },
        { id: "anon-new", user_id: null, data: "{}", expires_at: inDays },
      ])
      .execute();
    await purgeExpiredSessions();
    const ids = (
      await db.selectFrom("sessions").select("id").where("id", "in", ["anon-old", "anon-new"]).execute()
    ).map((r) => r.id);
    expect(ids).toEqual(["anon-new"]);
  });

  it("an anonymous session is stored for at most 10 minutes", async () => {
    const storage = getSessionStorage();
    const session = await storage.getSession();
    session.set("oauth2:state", "abc");
    const cookie = (await storage.commitSession(session)).split(";")[0];
    const id = (await getSession(requestWith(cookie))).id;
    const row = await database.current.db
      .selectFrom("sessions")
      .select("expires_at")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000 + 1000);
  });
});
