import type { VisitStatus } from "../../../db/enums";
import { SKIP_REASON_LABELS } from "~/features/plans/plan-constants";
import { businessToday } from "~/features/visits/visit-dates";
import { visitPath } from "~/features/visits/visit-paths";
import { listAssignedVisits } from "~/models/visit.server";
import { formatBusinessDate, formatBusinessDateTime } from "~/utils/business-time";
import { technicianWindow, type StaffUser } from "./staff-access.server";

/** At most this many visits on "My visits": 8 days of a full route (Today's 100 stops) and some. */
export const MY_VISITS_LIMIT = 400;

/**
 * "My visits" (decision 128): the viewer's assigned visits of today and the next 7 days, by day.
 * What a technician may reach, so every row's link opens; the list says when it was cut short.
 */
export async function loadMyVisits(staff: Pick<StaffUser, "id">, now = new Date()) {
  const { from, to } = technicianWindow(now);
  const rows = await listAssignedVisits(staff.id, from, to, MY_VISITS_LIMIT + 1);
  const today = businessToday(now);
  const days = new Map<string, { day: string; label: string; isToday: boolean; visits: MyVisit[] }>();
  for (const row of rows.slice(0, MY_VISITS_LIMIT)) {
    const day = businessToday(row.service_date);
    const group = days.get(day) ?? {
      day,
      label: formatBusinessDate(row.service_date),
      isToday: day === today,
      visits: [],
    };
    group.visits.push({
      id: row.id,
      href: visitPath(row.id),
      date: row.service_date.toISOString(),
      time: formatBusinessDateTime(row.service_date).split(", ").at(-1) ?? "",
      customer: row.customer_name ?? row.customer_email,
      serviceType: row.service_type,
      status: row.status,
      skipReason: row.status === "skipped" && row.skip_reason ? SKIP_REASON_LABELS[row.skip_reason] : null,
      address: [row.street, row.city, row.zip].filter(Boolean).join(", ") || null,
    });
    days.set(day, group);
  }
  return { days: [...days.values()], cut: rows.length > MY_VISITS_LIMIT };
}

type MyVisit = {
  id: string;
  href: string;
  date: string;
  time: string;
  customer: string;
  serviceType: string;
  status: VisitStatus;
  skipReason: string | null;
  address: string | null;
};
