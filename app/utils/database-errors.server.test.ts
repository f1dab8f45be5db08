import net from "node:net";
import pg from "pg";
import { expect, test } from "vitest";
import { isDatabaseUnavailable } from "./database-errors.server";

test("a refused connection from the real pg client counts as the database being away", async () => {
  // A port that was free a moment ago: nothing listens there.
  const probe = net.createServer();
  const port = await new Promise<number>((resolve) =>
    probe.listen(0, "127.0.0.1", () => resolve((probe.address() as net.AddressInfo).port)),
  );
  await new Promise((resolve) => probe.close(resolve));
  const client = new pg.Client({ host: "127.0.0.1", port, user: "nobody", connectionTimeoutMillis: 2000 });
  const error = await client.connect().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeTruthy();
  expect(isDatabaseUnavailable(error)).toBe(true);
});

test("connection-class errors count; query and programming errors do not", () => {
  expect(
    isDatabaseUnavailable(
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    ),
  ).toBe(true);
  expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "08006" }))).toBe(true);
  expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
  expect(
    isDatabaseUnavailable(
      new Error("Migration failed", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }),
    ),
  ).toBe(true);
  expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error("a"), { code: "ECONNREFUSED" })]))).toBe(
    true,
  );
  expect(
    isDatabaseUnavailable(
      Object.assign(new Error('duplicate key value violates unique constraint "users_email"'), { code: "23505" }),
    ),
  ).toBe(false);
  expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
  expect(isDatabaseUnavailable(null)).toBe(false);
});
