import { sql } from "kysely";
import { getDb } from "~/utils/db.server";
import { errorFields, log } from "~/utils/logger.server";

// Fly's health check: 200 when the database answers, 503 otherwise.
export async function loader() {
  const started = Date.now();
  try {
    const db = await getDb();
    await sql`select 1`.execute(db);
    return new Response("OK", {
      headers: {
        "Content-Type": "text/plain",
        "Cache-Control": "no-store",
        "X-Health-Ms": String(Date.now() - started),
      },
    });
  } catch (error) {
    log.error("healthcheck.failed", errorFields(error));
    return new Response("Database unavailable", { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
