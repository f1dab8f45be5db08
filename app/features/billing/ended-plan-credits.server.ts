import { addMonths, monthOf } from "./billing-rules";
import { applyCreditOnFile } from "./customer-credit.server";
import { priceForMonth, totalCents } from "./plan-prices";
import { candidateOf, creditVisits, monthBilledFrom, termsOnFrom } from "./visit-credits";
import { addDays, businessToday } from "~/features/visits/visit-dates";
import { CLOSED_DAY_CANCELLED_DETAIL } from "~/features/plans/plan-constants";
import { firstInvoicedMonth, listMonthBilling, listVisitsToCredit } from "~/models/invoice-run.server";
import { insertCreditNote, insertCreditNoteLines } from "~/models/ledger.server";
import { listPlanChanges } from "~/models/plan-adjustment.server";
import type { Db } from "~/utils/db.server";

/**
 * A visit the business does not make after its plan was cancelled (docs/decisions/120): an
 * admin's "Cancel Visit", a weather miss, a closed day with no open weekday. The plan has no next
 * invoice to carry the credit, so it comes back at once as a credit note of its own (reason
 * "business_cancelled" or "weather", key `visit-credit:<visit>`, kept as credit on file and used
 * on what is owed), at the rate of every visit's credit (visit-credits.ts: its month's bill ÷ its
 * visits, within what the month has left). Once: the key and the visit's unique credit line keep
 * a second cancel, or a visit credited already, from giving anything more. Runs in the caller's
 * transaction, after the visit's change and its history line; returns the invoices the credit
 * paid (the caller expires their "Pay now" pages once committed).
 */
export async function creditVisitsOfEndedPlans(trx: Db, visitIds: readonly string[], now: Date): Promise<string[]> {
  if (visitIds.length === 0) return [];
  const plans = await trx
    .selectFrom("services as s")
    .innerJoin("customer_plans as p", "p.id", "s.plan_id")
    .selectAll("p")
    .select(["s.plan_slot as slot"])
    .where("s.id", "in", [...visitIds])
    .where("p.status", "=", "cancelled")
    .where("s.plan_slot", "is not", null)
    .execute();
  const customers = new Set<string>();
  const first = plans.length > 0 ? await firstInvoicedMonth(trx) : null;
  for (const plan of new Map(plans.map((row) => [row.id, row])).values()) {
    const slots = plans
      .filter((row) => row.id === plan.id)
      .map((row) => dayText(row.slot!))
      .sort();
    const visits = (
      await listVisitsToCredit(
        trx,
        [plan.id],
        { from: slots[0], until: addDays(slots[slots.length - 1], 1) },
        { statuses: ["cancelled", "missed"], closedDayDetail: CLOSED_DAY_CANCELLED_DETAIL },
      )
    ).filter((visit) => visitIds.includes(visit.id));
    const candidates = visits.flatMap((visit) => candidateOf(visit) ?? []);
    if (candidates.length === 0) continue;
    const [months, changes] = await Promise.all([
      listMonthBilling(trx, [plan.id], monthOf(slots[0]), addMonths(monthOf(slots[slots.length - 1]), 1)),
      listPlanChanges(trx, [plan.id]),
    ]);
    const price = priceForMonth(plan, monthOf(slots[0]));
    const credited = creditVisits(plan, candidates, {
      // The business's own need no notice; skips are not among these.
      noticeHours: 0,
      creditSkips: false,
      monthBilled: monthBilledFrom(new Map(months.map((month) => [month.month, { ...month }])), plan, {
        firstInvoicedMonth: first,
        monthlyCents: price ? totalCents(price) : 0,
        prorateFirstMonth: true,
      }),
      termsOn: termsOnFrom(changes, plan),
    });
    for (const visit of credited) {
      const note = await insertCreditNote(trx, {
        customerId: plan.customer_id,
        invoiceId: null,
        reason: visit.cause === "weather" ? "weather" : "business_cancelled",
        paidOut: "credit",
        amountCents: visit.amountCents,
        issuedOn: businessToday(now),
        description: `${plan.catalogue_plan_name} (cancelled): ${visit.description}`,
        refundId: null,
        idempotencyKey: `visit-credit:${visit.visitId}`,
      });
      if (!note) continue;
      await insertCreditNoteLines(trx, note.id, [
        {
          planId: plan.id,
          month: visit.month,
          slot: visit.slot,
          visitId: visit.visitId,
          description: visit.description,
          amountCents: visit.amountCents,
        },
      ]);
      customers.add(plan.customer_id);
    }
  }
  if (customers.size === 0) return [];
  return (await applyCreditOnFile(trx, [...customers], now)).credited;
}

function dayText(value: string | Date): string {
  return typeof value === "string" ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}
