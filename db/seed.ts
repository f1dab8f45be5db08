// `npm run db:seed`: development accounts, customers with yards, visits with photos, bookings
// and quote requests. Photos go to the uploads folder (UPLOADS_DIR, else DATA_DIR/uploads).
import path from "node:path";
import { connect } from "./connection";
import { migrateToLatest } from "./migrator";
import { databaseOptionsFromEnv } from "./options";
import { DEV_ACCOUNTS, SEED_CUSTOMERS, seedDevelopmentData } from "./seed-data";
import { seedFolderStorage } from "./seed-photos";

if (process.env.NODE_ENV === "production" && !process.argv.includes("--force")) {
  console.error("Refusing to seed development accounts in production (pass --force to override).");
  process.exit(1);
}
const handle = connect(databaseOptionsFromEnv(process.env));
try {
  await migrateToLatest(handle.db);
  // With S3 configured the app seeds itself (npm run dev); this script writes folders only.
  const storage = process.env.S3_BUCKET
    ? undefined
    : seedFolderStorage(path.resolve(process.env.UPLOADS_DIR || path.join(process.env.DATA_DIR || ".data", "uploads")));
  const seeded = await seedDevelopmentData(handle.db, { storage });
  console.log(seeded ? "Seeded development data:" : "Development data already present:");
  for (const [role, account] of Object.entries(DEV_ACCOUNTS)) {
    console.log(`  ${role.padEnd(8)} ${account.email} / ${account.password}`);
  }
  for (const customer of SEED_CUSTOMERS) {
    console.log(`  customer ${customer.email} / ${DEV_ACCOUNTS.customer.password}`);
  }
} finally {
  await handle.close();
}
