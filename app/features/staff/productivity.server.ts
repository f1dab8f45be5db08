import { plannedRouteOf } from "~/features/route/today-route.server";
import { businessToday, isCalendarDay, startOfBusinessDay, addDays } from "~/features/visits/visit-dates";
import { listAssignedVisitsOfDay } from "~/models/staff-day.server";
import { listStaffMembers } from "~/models/staff.server";
import { formatBusinessDate } from "~/utils/business-time";
import { ROLE_LABELS } from "./capabilities";
import { summariseDay, type DaySummary } from "./productivity";

export const PRODUCTIVITY_DAY_PARAM = "day";

export type ProductivityRow = DaySummary & { staffId: string; name: string; roleLabel: string };

/**
 * The Staff page's productivity (decision 128) for the day `?day=` names (default today): one row
 * per active technician and per other staff member with visits assigned that day. A day that is
 * not a date is reported and today shown instead.
 */
export async function loadProductivity(url: URL, now = new Date()) {
  const asked = url.searchParams.get(PRODUCTIVITY_DAY_PARAM);
  const valid = asked !== null && isCalendarDay(asked) && startOfBusinessDay(asked) !== null;
  const day = valid ? asked : businessToday(now);
  const from = startOfBusinessDay(day)!;
  const to = startOfBusinessDay(addDays(day, 1))!;
  const [visits, members] = await Promise.all([listAssignedVisitsOfDay(from, to), listStaffMembers()]);
  const byStaff = new Map<string, typeof visits>();
  for (const visit of visits) {
    const own = byStaff.get(visit.assigned_to);
    if (own) own.push(visit);
    else byStaff.set(visit.assigned_to, [visit]);
  }
  const shown = members.filter((m) => byStaff.has(m.id) || (m.role === "technician" && !m.deactivatedAt));
  const rows: ProductivityRow[] = [];
  for (const member of shown) {
    const own = byStaff.get(member.id) ?? [];
    const route = own.length > 0 ? await plannedRouteOf(day, member.id) : null;
    const legMinutes = new Map(
      (route?.stops ?? []).map((stop) => [stop.id, ((stop.legMiles ?? 0) / route!.averageSpeedMph) * 60]),
    );
    const summary = summariseDay(
      own.map((visit) => ({
        id: visit.id,
        status: visit.status,
        skipReason: visit.skip_reason,
        missedReason: visit.missed_reason,
        onMyWayAt: visit.on_my_way_at,
        completedAt: visit.completed_at,
      })),
      route ? { miles: route.miles, legMinutes } : own.length === 0 ? { miles: 0, legMinutes } : null,
    );
    rows.push({
      ...summary,
      staffId: member.id,
      name: member.fullName ?? member.email,
      roleLabel: ROLE_LABELS[member.role],
    });
  }
  return {
    day,
    dayLabel: formatBusinessDate(from),
    problem: asked !== null && !valid ? `"${asked.slice(0, 40)}" is not a date: showing today.` : null,
    rows,
  };
}
