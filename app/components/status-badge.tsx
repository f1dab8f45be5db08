import type { BookingStatus } from "~/features/bookings/booking-constants";
import type { VisitStatus } from "~/features/visits/visit-constants";

// Colours are component classes in app/tailwind.css (`.badge`, `.badge-*`, decision 076): a
// badge is on every row of the lists.
type Tone = "badge-green" | "badge-blue" | "badge-yellow" | "badge-grey";

function Badge({ tone, label }: { tone: Tone; label: string }) {
  return <span className={`badge ${tone}`}>{label.replace(/_/g, " ")}</span>;
}

/** SPEC 4: completed green, scheduled blue, anything else grey. */
export function VisitStatusBadge({ status }: { status: VisitStatus }) {
  const tone = status === "completed" ? "badge-green" : status === "scheduled" ? "badge-blue" : "badge-grey";
  return <Badge tone={tone} label={status} />;
}

/** SPEC 4: confirmed green, pending yellow, anything else grey. */
export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  const tone = status === "confirmed" ? "badge-green" : status === "pending" ? "badge-yellow" : "badge-grey";
  return <Badge tone={tone} label={status} />;
}
