import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { formPost, get, setCookie, settle } from "../helpers/auth-requests";
import { createUser, sessionCookieFor, type TestUser } from "../helpers/factories";
import { callRoute, locationOf, toastOf } from "../helpers/route-calls";
import { useTestSmtp } from "../helpers/smtp-server";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { ACCOUNT_DEACTIVATED } from "~/features/accounts/sign-in.server";
import { deliverDueEmails } from "~/features/outbox/outbox.server";
import { STAFF_MESSAGES } from "~/features/staff/staff-page.server";
import { action as signInAction } from "~/routes/auth";
import { action as setPasswordAction } from "~/routes/auth_.set-password";
import { action, loader } from "~/routes/admin-dashboard.staff";
import { loader as todayLoader } from "~/routes/admin-dashboard.visits.today";

/** The owner's Staff page (decision 123): invite, change role, deactivate; the last owner stays. */
const database = useAppDatabase();
const db = () => database.current.db;
const smtp = useTestSmtp("Swift Scoops <office@example.com>");

let owner: TestUser;
let office: TestUser;

beforeAll(async () => {
  owner = await createUser(db(), { role: "owner", fullName: "Oscar Owner" });
  office = await createUser(db(), { role: "office", fullName: "Olive Office" });
});

const post = async (who: TestUser, form: Record<string, string>) =>
  callRoute(action, "/admin-dashboard/staff", { cookie: await sessionCookieFor(who.id), form });

const roleOf = async (userId: string) =>
  (await db().selectFrom("user_roles").select("role").where("user_id", "=", userId).executeTakeFirst())?.role ?? null;

const counts = async () => ({
  users: (await db().selectFrom("users").select("id").execute()).length,
  roles: (await db().selectFrom("user_roles").select("user_id").execute()).length,
  outbox: (await db().selectFrom("outbox").select("id").execute()).length,
});

describe("inviting staff", () => {
  it("makes the account with its role and queues the invitation; the link sets a password, then two-step is required", async () => {
    const before = await counts();
    const response = await post(owner, {
      intent: "invite",
      fullName: "Tess Technician",
      email: "tess@example.com",
      role: "technician",
    });
    expect(response.status).toBe(302);
    expect(locationOf(response)).toBe("/admin-dashboard/staff");
    expect(await toastOf(response)).toMatchObject({
      type: "success",
      description: "Invitation sent to tess@example.com",
    });
    expect(await counts()).toEqual({ users: before.users + 1, roles: before.roles + 1, outbox: before.outbox + 1 });
    const tess = await db()
      .selectFrom("users")
      .selectAll()
      .where("email", "=", "tess@example.com")
      .executeTakeFirstOrThrow();
    expect(tess.password_hash).toBeNull();
    expect(await roleOf(tess.id)).toBe("technician");

    await deliverDueEmails();
    const mail = (await smtp.current.waitForMessages(1)).find((m) => JSON.stringify(m.to).includes("tess@example.com"));
    expect(mail?.subject).toMatch(/^Join /);
    expect(mail?.text).toContain("staff account for you (Technician)");
    const link = /(http\S+\/auth\/set-password\?token=\S+)/.exec(mail?.text ?? "")?.[1];
    expect(link).toBeTruthy();
    const token = new URL(link!).searchParams.get("token")!;

    const set = await settle(() =>
      setPasswordAction({
        request: formPost("/auth/set-password", { token, password: "a long enough password 42" }),
        params: {},
        context: {},
      }),
    );
    const session = setCookie(set, "__session");
    expect(session).toBeTruthy();
    // Signed in, but no staff page opens before two-step is on.
    const today = await callRoute(todayLoader, "/admin-dashboard/visits/today", { cookie: session });
    expect(today.status).toBe(302);
    expect(locationOf(today)).toBe("/account/security");
  });

  it("refuses an address that already has an account, and bad input, storing nothing", async () => {
    const customer = await createUser(db(), { email: "customer.already@example.com" });
    const before = await counts();
    const taken = await post(owner, {
      intent: "invite",
      fullName: "Someone",
      email: "Customer.Already@example.com",
      role: "office",
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).toast.description).toBe(STAFF_MESSAGES.emailTaken);
    for (const form of [
      { intent: "invite", fullName: "", email: "x@example.com", role: "office" },
      { intent: "invite", fullName: "X", email: "not an address", role: "office" },
      { intent: "invite", fullName: "X", email: "x@example.com", role: "admin" },
      { intent: "invite", fullName: "X".repeat(201), email: "x@example.com", role: "office" },
    ]) {
      expect((await post(owner, form)).status).toBe(400);
    }
    expect(await counts()).toEqual(before);
    expect(await roleOf(customer.id)).toBeNull();
  });
});

describe("roles and the last owner", () => {
  it("an office account cannot open the page or make itself owner", async () => {
    const page = await callRoute(loader, "/admin-dashboard/staff", { cookie: await sessionCookieFor(office.id) });
    expect(page.status).toBe(302);
    expect(await toastOf(page)).toMatchObject({ message: "Access Denied" });
    const response = await post(office, { intent: "role", userId: office.id, role: "owner" });
    expect(response.status).toBe(302);
    expect(await toastOf(response)).toMatchObject({ message: "Access Denied" });
    expect(await roleOf(office.id)).toBe("office");
  });

  it("the last active owner can be neither demoted nor deactivated; with a second owner, one can step down", async () => {
    const demote = await post(owner, { intent: "role", userId: owner.id, role: "office" });
    expect(demote.status).toBe(409);
    expect((await demote.json()).toast.description).toBe(STAFF_MESSAGES.lastOwner);
    expect(await roleOf(owner.id)).toBe("owner");

    const second = await createUser(db(), { role: "owner", fullName: "Second Owner" });
    // An owner who is deactivated does not count as the one that remains.
    await db().updateTable("users").set({ deactivated_at: new Date() }).where("id", "=", second.id).execute();
    expect((await post(owner, { intent: "role", userId: owner.id, role: "office" })).status).toBe(409);
    await db().updateTable("users").set({ deactivated_at: null }).where("id", "=", second.id).execute();

    const stepDown = await post(second, { intent: "role", userId: second.id, role: "technician" });
    expect(stepDown.status).toBe(302);
    expect(await roleOf(second.id)).toBe("technician");
    // And the role form refuses what is not staff or not a role.
    const customer = await createUser(db());
    expect((await post(owner, { intent: "role", userId: customer.id, role: "office" })).status).toBe(409);
    expect(await roleOf(customer.id)).toBeNull();
    expect((await post(owner, { intent: "role", userId: "nope", role: "office" })).status).toBe(400);
    expect((await post(owner, { intent: "role", userId: office.id, role: "admin" })).status).toBe(400);
    expect(await roleOf(office.id)).toBe("office");
  });
});

describe("deactivating an account", () => {
  it("ends its sessions at once, and it can no longer sign in; reactivated, it can", async () => {
    const tech = await createUser(db(), { role: "technician", fullName: "Leaving Tech" });
    const cookie = await sessionCookieFor(tech.id);
    expect(await getOptionalUser(get("/", { cookie }), {})).not.toBeNull();

    const response = await post(owner, { intent: "deactivate", userId: tech.id });
    expect(response.status).toBe(302);
    expect(await getOptionalUser(get("/", { cookie }), {})).toBeNull();
    expect(await db().selectFrom("sessions").select("id").where("user_id", "=", tech.id).execute()).toEqual([]);
    // Even a session row that survived is worthless: the lookup treats the account as signed out.
    const late = await sessionCookieFor(tech.id);
    expect(await getOptionalUser(get("/", { cookie: late }), {})).toBeNull();

    const signIn = await settle(() =>
      signInAction({
        request: formPost(
          "/auth",
          { intent: "signin", email: tech.email, password: tech.password },
          { ip: "203.0.113.77" },
        ),
        params: {},
        context: {},
      }),
    );
    expect(signIn.status).toBe(302);
    expect(locationOf(signIn)).toBe("/auth");
    expect(setCookie(signIn, "__two_step")).toBeUndefined();
    expect(await toastOf(signIn)).toMatchObject(ACCOUNT_DEACTIVATED);

    // The owner cannot deactivate themselves (the last-owner rule aside).
    expect((await post(owner, { intent: "deactivate", userId: owner.id })).status).toBe(400);

    expect((await post(owner, { intent: "reactivate", userId: tech.id })).status).toBe(302);
    expect(await getOptionalUser(get("/", { cookie: await sessionCookieFor(tech.id) }), {})).not.toBeNull();
  });
});
