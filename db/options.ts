import path from "node:path";
import type { ConnectionOptions } from "./connection";

/** The same choice the server makes: DATABASE_URL, else PGlite under DATA_DIR (default .data). */
export function databaseOptionsFromEnv(env: Record<string, string | undefined>): ConnectionOptions {
  if (env.DATABASE_URL) return { databaseUrl: env.DATABASE_URL };
  return { dataDir: path.join(env.DATA_DIR || ".data", "pglite") };
}
