import type { Db } from "~/utils/db.server";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";

/** One press of "Show gate code" (migration 0042), in the caller's transaction. */
export async function recordGateCodeView(db: Db, view: { customerId: string; visitId: string; viewerId: string }) {
  await db
    .insertInto("gate_code_views")
    .values({ customer_id: view.customerId, visit_id: view.visitId, viewer_id: view.viewerId })
    .execute();
}

export type GateCodeViewRow = {
  id: string;
  viewed_at: Date;
  visit_id: string | null;
  service_date: Date | null;
  viewer_email: string | null;
  viewer_name: string | null;
};

/** The customer's gate-code views, newest first (gate_code_views_customer_id_viewed_at_idx). */
export async function listGateCodeViews(customerId: string, limit = 50): Promise<GateCodeViewRow[]> {
  if (!isUuid(customerId)) return [];
  const db = await getDb();
  return db
    .selectFrom("gate_code_views")
    .leftJoin("users", "users.id", "gate_code_views.viewer_id")
    .leftJoin("profiles", "profiles.user_id", "gate_code_views.viewer_id")
    .leftJoin("services", "services.id", "gate_code_views.visit_id")
    .select([
      "gate_code_views.id",
      "gate_code_views.viewed_at",
      "gate_code_views.visit_id",
      "services.service_date",
      "users.email as viewer_email",
      "profiles.full_name as viewer_name",
    ])
    .where("gate_code_views.customer_id", "=", customerId)
    .orderBy("gate_code_views.viewed_at", "desc")
    .orderBy("gate_code_views.id", "desc")
    .limit(limit)
    .execute();
}
