import type { BookingStatus } from "~/features/bookings/booking-constants";
import type { ServiceStatus } from "~/features/visits/visit-constants";

const GREEN = "bg-green-100 text-green-900 ring-green-700/30 dark:bg-green-900 dark:text-green-50";
const BLUE = "bg-blue-100 text-blue-900 ring-blue-700/30 dark:bg-blue-900 dark:text-blue-50";
const YELLOW = "bg-yellow-100 text-yellow-900 ring-yellow-700/30 dark:bg-yellow-800 dark:text-yellow-50";
const GREY = "bg-slate-100 text-slate-800 ring-slate-600/30 dark:bg-slate-700 dark:text-slate-50";

function Badge({ tone, label }: { tone: string; label: string }) {
  return (
    <span
      className={`inline-block rounded-full px-3 py-1 text-sm font-semibold first-letter:uppercase ring-1 ring-inset ${tone}`}
    >
      {label.replace(/_/g, " ")}
    </span>
  );
}

/** SPEC 4: completed green, scheduled blue, anything else grey. */
export function ServiceStatusBadge({ status }: { status: ServiceStatus }) {
  const tone = status === "completed" ? GREEN : status === "scheduled" ? BLUE : GREY;
  return <Badge tone={tone} label={status} />;
}

/** SPEC 4: confirmed green, pending yellow, anything else grey. */
export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  const tone = status === "confirmed" ? GREEN : status === "pending" ? YELLOW : GREY;
  return <Badge tone={tone} label={status} />;
}
