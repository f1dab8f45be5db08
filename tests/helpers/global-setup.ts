import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { connect } from "../../db/connection";
import { migrateToLatest } from "../../db/migrator";

// PGlite's initdb costs seconds; do it once, migrated, and let each test file load a copy.
export default async function setup() {
  if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) return;
  const dir = mkdtempSync(path.join(os.tmpdir(), "pglite-template-"));
  const pglite = new PGlite();
  const handle = connect({ pglite });
  await migrateToLatest(handle.db);
  const dump = await pglite.dumpDataDir("none");
  const file = path.join(dir, "template.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  process.env.PGLITE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
