import { formatBusinessClock } from "./on-my-way.server";
import type { OnMyWayView } from "./on-my-way-panel";
import { businessToday } from "~/features/visits/visit-dates";
import { findOnMyWayState } from "~/models/on-my-way.server";
import { getDb } from "~/utils/db.server";
import { isUuid } from "~/utils/uuid";
import { isTextConfigured } from "~/utils/texts.server";

/** The visit page's "On my way" section. */
export async function onMyWayView(visitId: string, now = new Date()): Promise<OnMyWayView> {
  const state = isUuid(visitId) ? await findOnMyWayState(await getDb(), visitId) : undefined;
  return {
    canSend:
      Boolean(state) &&
      state!.on_my_way_at === null &&
      state!.status === "scheduled" &&
      businessToday(state!.service_date) === businessToday(now),
    sentAt: state?.on_my_way_at ? formatBusinessClock(state.on_my_way_at) : null,
    textsConfigured: isTextConfigured(),
  };
}

/** The customer's visit page: when the technician set out, while the visit is still scheduled. */
export function onTheWaySince(visit: { status: string; on_my_way_at: Date | null }) {
  return visit.status === "scheduled" && visit.on_my_way_at ? formatBusinessClock(visit.on_my_way_at) : null;
}
