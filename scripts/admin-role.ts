// `npm run admin:grant -- someone@example.com` / `npm run admin:revoke -- someone@example.com`
// grant makes an owner (decision 123: the admin of old); revoke takes any staff role away.
import { connect } from "../db/connection";
import { migrateToLatest } from "../db/migrator";
import { databaseOptionsFromEnv } from "../db/options";

const [command, rawEmail] = process.argv.slice(2);
const email = rawEmail?.trim().toLowerCase();
if ((command !== "grant" && command !== "revoke") || !email) {
  console.error("Usage: npm run admin:grant -- someone@example.com   (or admin:revoke)");
  process.exit(2);
}

const handle = connect(databaseOptionsFromEnv(process.env));
try {
  await migrateToLatest(handle.db);
  const user = await handle.db
    .selectFrom("users")
    .select(["id", "email"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
    .executeTakeFirst();
  if (!user) {
    console.error(`No account uses ${email}. The person must sign up first.`);
    process.exitCode = 1;
  } else if (command === "grant") {
    await handle.db
      .insertInto("user_roles")
      .values({ user_id: user.id, role: "owner" })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ role: "owner" }))
      .execute();
    const twoStep = await handle.db
      .selectFrom("user_totp")
      .select("user_id")
      .where("user_id", "=", user.id)
      .where("enabled_at", "is not", null)
      .executeTakeFirst();
    console.log(`${user.email} is now an owner.`);
    if (!twoStep) {
      console.log(
        "Staff must use two-step sign-in: after signing in they are sent to /account/security and cannot open " +
          "any staff page until they turn it on there.",
      );
    }
  } else {
    await handle.db.deleteFrom("user_roles").where("user_id", "=", user.id).execute();
    console.log(`${user.email} is no longer staff.`);
  }
} finally {
  await handle.close();
}
