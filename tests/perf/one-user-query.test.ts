import { expect, test } from "vitest";
import { useAppDatabase } from "../helpers/app-database";
import { createUser, sessionCookieFor } from "../helpers/factories";
import { getOptionalUser, requireUser } from "~/features/accounts/auth.server";

// The root loader and the page's loader of one document request share the load context; the
// session and the user are read once for both (each loader gets its own copy of the Request).
const database = useAppDatabase();

async function signedInRequest(method = "GET") {
  const user = await createUser(database.current.db, { email: `one-query-${Math.random()}@example.com` });
  const cookie = await sessionCookieFor(user.id);
  return () => new Request("http://localhost/customer-dashboard", { method, headers: { Cookie: cookie } });
}

test("two loaders of one request get the very same user object: one lookup", async () => {
  const request = await signedInRequest();
  const context = {};
  const [fromRoot, fromPage] = await Promise.all([
    getOptionalUser(request(), context),
    requireUser(request(), context),
  ]);
  expect(fromRoot).not.toBeNull();
  expect(fromPage).toBe(fromRoot);
});

test("another request (another context) reads the session again", async () => {
  const request = await signedInRequest();
  const first = await getOptionalUser(request(), {});
  const second = await getOptionalUser(request(), {});
  expect(second).toEqual(first);
  expect(second).not.toBe(first);
});

test("an action's request (POST) is never served a lookup made earlier", async () => {
  const request = await signedInRequest("POST");
  const context = {};
  const first = await getOptionalUser(request(), context);
  expect(await getOptionalUser(request(), context)).not.toBe(first);
});
