import { getSiteSettings } from "~/content/content.server";
import { formatCents } from "~/features/billing/money";
import { firstOfPeriods, payPeriodOf } from "~/features/tips/tip-rules";
import { businessToday } from "~/features/visits/visit-dates";
import { listTechnicianTips } from "~/models/tip.server";
import { formatBusinessDate } from "~/utils/business-time";
import type { Db } from "~/utils/db.server";

/** The pay periods the Staff page shows: this one and the five before it (twelve weeks). */
const PERIODS_SHOWN = 6;

export type StaffTipsView = {
  periods: {
    label: string;
    rows: { technician: string; tips: number; total: string; card: string; invoice: string }[];
  }[];
} | null;

/**
 * Each technician's tips per pay period (two weeks from Site settings' first day of one,
 * docs/decisions/131), for the owner's Staff page: card tips once charged, invoice tips while
 * their invoice is not void. All of each tip is the technician's.
 */
export async function loadStaffTips(db: Db, now: Date): Promise<StaffTipsView> {
  const settings = await getSiteSettings();
  if (!settings.tips) return null;
  const anchor = settings.tips.payPeriodStart;
  const today = businessToday(now);
  const rows = await listTechnicianTips(db, {
    anchor,
    days: 14,
    from: firstOfPeriods(today, anchor, PERIODS_SHOWN),
  });
  const byPeriod = new Map<string, typeof rows>();
  for (const row of rows) byPeriod.set(row.period_start, [...(byPeriod.get(row.period_start) ?? []), row]);
  return {
    periods: [...byPeriod].map(([start, own]) => {
      const { end } = payPeriodOf(start, anchor);
      return {
        label: `${formatBusinessDate(`${start}T12:00:00Z`)} to ${formatBusinessDate(`${end}T12:00:00Z`)}`,
        rows: own.map((row) => ({
          technician: row.technician_name,
          tips: row.tips,
          total: formatCents(row.cents),
          card: formatCents(row.card_cents),
          invoice: formatCents(row.invoice_cents),
        })),
      };
    }),
  };
}
