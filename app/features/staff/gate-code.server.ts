import { addDays, businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import type { YardView } from "~/features/yards/yard-details";
import { listGateCodeViews, recordGateCodeView } from "~/models/gate-code-view.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";
import { GATE_CODE_MESSAGES } from "./gate-code-constants";

export { GATE_CODE_INTENT, GATE_CODE_MESSAGES } from "./gate-code-constants";

/**
 * The yard as the visit page sends it. Staff on a need-to-know footing (technicians: they cannot
 * open the customer's page, where the code is anyway) get no code in the page, only the fact
 * that one is on file; the press of "Show gate code" reveals it, logged.
 */
export function yardForViewer(
  yard: YardView | null,
  needToKnow: boolean,
): (YardView & { gateCodeHidden: boolean }) | null {
  if (!yard) return null;
  if (!needToKnow || !yard.gateCode) return { ...yard, gateCodeHidden: false };
  return { ...yard, gateCode: null, gateCodeHidden: true };
}

export type GateCodeReveal = { ok: true; gateCode: string } | { ok: false; status: number; description: string };

/**
 * One press of "Show gate code": the code, and a row in gate_code_views in the same
 * transaction, so no code leaves without its log. With `needToKnow` the visit must be the
 * viewer's own and of today (business day); the route has already checked its wider reach.
 */
export async function revealGateCode(input: {
  visitId: string;
  viewerId: string;
  needToKnow: boolean;
  now?: Date;
}): Promise<GateCodeReveal> {
  if (!isUuid(input.visitId)) return { ok: false, status: 404, description: "Visit not found" };
  const today = businessToday(input.now ?? new Date());
  const dayStart = startOfBusinessDay(today)!;
  const dayEnd = startOfBusinessDay(addDays(today, 1))!;
  const db = await getDb();
  return db.transaction().execute(async (trx): Promise<GateCodeReveal> => {
    const visit = await trx
      .selectFrom("services")
      .leftJoin("yard_profiles", "yard_profiles.user_id", "services.customer_id")
      .select(["services.customer_id", "services.assigned_to", "services.service_date", "yard_profiles.gate_code"])
      .where("services.id", "=", input.visitId)
      .executeTakeFirst();
    if (!visit) return { ok: false, status: 404, description: "Visit not found" };
    if (input.needToKnow) {
      const onItsDay = visit.service_date >= dayStart && visit.service_date < dayEnd;
      if (visit.assigned_to !== input.viewerId || !onItsDay) {
        return { ok: false, status: 403, description: GATE_CODE_MESSAGES.notToday };
      }
    }
    if (!visit.gate_code) return { ok: false, status: 404, description: GATE_CODE_MESSAGES.none };
    await recordGateCodeView(trx, { customerId: visit.customer_id, visitId: input.visitId, viewerId: input.viewerId });
    return { ok: true, gateCode: visit.gate_code };
  });
}

/** The customer page's "Gate code views" (the owner's): the newest 50, who and on which visit. */
export async function gateCodeViewsOf(customerId: string) {
  const rows = await listGateCodeViews(customerId, 50);
  return rows.map((row) => ({
    id: row.id,
    at: row.viewed_at.toISOString(),
    when: formatBusinessDateTime(row.viewed_at),
    who: row.viewer_name ?? row.viewer_email ?? "A deleted account",
    visit:
      row.visit_id && row.service_date ? { id: row.visit_id, dateLabel: formatBusinessDate(row.service_date) } : null,
  }));
}
