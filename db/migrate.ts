// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the PGlite folder.
import { connect } from "./connection";
import { migrateToLatest } from "./migrator";
import { databaseOptionsFromEnv } from "./options";

// The release command must not migrate a throwaway PGlite folder in the container.
if (
  process.env.NODE_ENV === "production" &&
  !process.env.DATABASE_URL &&
  process.env.ALLOW_EMBEDDED_IN_PRODUCTION !== "true"
) {
  console.error("DATABASE_URL is required in production (the embedded PGlite database is for development only).");
  process.exit(1);
}

const handle = connect(databaseOptionsFromEnv(process.env));
try {
  const applied = await migrateToLatest(handle.db);
  console.log(
    applied.length ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database is up to date.",
    `(${handle.kind})`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await handle.close();
}
