import { Form, Link, useNavigation } from "@remix-run/react";
import { BookingStatusBadge } from "~/components/status-badge";
import { SERVICE_TYPES } from "~/features/visits/visit-constants";
import type { BookingStatus } from "./booking-constants";

/** One booking as the admin page's loader sends it (see admin-bookings.server.ts). */
export type AdminBookingItem = {
  id: string;
  when: string;
  startsAt: string;
  serviceType: string;
  suggestedVisitType: string | null;
  status: BookingStatus;
  provider: string | null;
  customer: { name: string | null; email: string | null } | null;
  attendeeEmail: string | null;
  visitId: string | null;
  canAssign: boolean;
  canConfirm: boolean;
  canCancel: boolean;
  canCreateVisit: boolean;
};

const PROVIDER_LABELS: Record<string, string> = { cal_com: "Cal.com", calendly: "Calendly" };

const button =
  "inline-flex min-h-11 items-center justify-center rounded-full px-5 py-2 font-semibold focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-wait disabled:opacity-70";
const primary = `${button} bg-brand-700 text-white hover:bg-brand-800 dark:bg-brand-300 dark:text-brand-950 dark:hover:bg-brand-200`;
const secondary = `${button} border-2 border-slate-500 text-slate-900 hover:bg-slate-100 dark:border-slate-400 dark:text-white dark:hover:bg-slate-800`;
const field =
  "min-h-11 rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-slate-900 dark:border-slate-400 dark:bg-slate-900 dark:text-white";
const label = "block text-sm font-semibold text-slate-800 dark:text-slate-100";

function Hidden({ intent, bookingId }: { intent: string; bookingId: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="bookingId" value={bookingId} />
    </>
  );
}

export function AdminBookingList({ items, emptyText }: { items: AdminBookingItem[]; emptyText: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (items.length === 0) return <p className="mt-4 text-slate-700 dark:text-slate-200">{emptyText}</p>;
  return (
    <ul className="mt-4 space-y-4">
      {items.map((b) => {
        const headingId = `booking-${b.id}`;
        return (
          <li
            key={b.id}
            aria-labelledby={headingId}
            className="rounded-xl border border-slate-300 p-4 dark:border-slate-600"
            data-testid="booking"
          >
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h4 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
                  {b.serviceType}, <time dateTime={b.startsAt}>{b.when}</time>
                </h4>
                <p className="text-slate-800 dark:text-slate-100">
                  {b.customer ? (
                    <>Customer: {b.customer.name ? `${b.customer.name} (${b.customer.email})` : b.customer.email}</>
                  ) : (
                    <>
                      <strong>Unmatched</strong>
                      {b.attendeeEmail ? `: booked as ${b.attendeeEmail}` : null}
                    </>
                  )}
                </p>
                {b.provider ? (
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    From {PROVIDER_LABELS[b.provider] ?? b.provider}
                  </p>
                ) : null}
              </div>
              <BookingStatusBadge status={b.status} />
            </div>

            <div className="mt-3 flex flex-wrap items-end gap-3">
              {b.canAssign ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <Hidden intent="assign" bookingId={b.id} />
                  <div>
                    <label htmlFor={`assign-${b.id}`} className={label}>
                      Customer e-mail
                    </label>
                    <input
                      id={`assign-${b.id}`}
                      name="customerEmail"
                      type="email"
                      required
                      autoComplete="off"
                      defaultValue={b.attendeeEmail ?? ""}
                      className={field}
                    />
                  </div>
                  <button type="submit" className={primary} disabled={busy} aria-describedby={headingId}>
                    Assign Customer
                  </button>
                </Form>
              ) : null}
              {b.canConfirm ? (
                <Form method="post">
                  <Hidden intent="confirm" bookingId={b.id} />
                  <button type="submit" className={primary} disabled={busy} aria-describedby={headingId}>
                    Confirm
                  </button>
                </Form>
              ) : null}
              {b.canCreateVisit ? (
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <Hidden intent="create-visit" bookingId={b.id} />
                  <div>
                    <label htmlFor={`visit-type-${b.id}`} className={label}>
                      Visit type
                    </label>
                    <select
                      id={`visit-type-${b.id}`}
                      name="serviceType"
                      required
                      defaultValue={b.suggestedVisitType ?? ""}
                      className={field}
                    >
                      <option value="" disabled>
                        Select a service type
                      </option>
                      {SERVICE_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button type="submit" className={primary} disabled={busy} aria-describedby={headingId}>
                    Create Visit
                  </button>
                </Form>
              ) : null}
              {b.visitId ? <p className="font-semibold text-green-900 dark:text-green-200">Visit created</p> : null}
              {b.canCancel ? (
                <Form method="post">
                  <Hidden intent="cancel" bookingId={b.id} />
                  <button type="submit" className={secondary} disabled={busy} aria-describedby={headingId}>
                    Cancel
                  </button>
                </Form>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function MoreLink({ to, label: text }: { to: string; label: string }) {
  return (
    <Link to={to} className={`${secondary} mt-4`}>
      {text}
    </Link>
  );
}
