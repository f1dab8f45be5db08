// `npm run db:seed`: development admin and customer with a few services and bookings.
import { connect } from "./connection";
import { migrateToLatest } from "./migrator";
import { databaseOptionsFromEnv } from "./options";
import { DEV_ACCOUNTS, seedDevelopmentData } from "./seed-data";

if (process.env.NODE_ENV === "production" && !process.argv.includes("--force")) {
  console.error("Refusing to seed development accounts in production (pass --force to override).");
  process.exit(1);
}
const handle = connect(databaseOptionsFromEnv(process.env));
try {
  await migrateToLatest(handle.db);
  const seeded = await seedDevelopmentData(handle.db);
  console.log(seeded ? "Seeded development data:" : "Development data already present:");
  for (const [role, account] of Object.entries(DEV_ACCOUNTS)) {
    console.log(`  ${role.padEnd(8)} ${account.email} / ${account.password}`);
  }
} finally {
  await handle.close();
}
