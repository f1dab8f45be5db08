import { useId } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Field, SelectField } from "~/components/forms";
import { BookingStatusBadge } from "~/components/status-badge";
import { VISIT_TYPES } from "~/features/visits/visit-constants";
import type { BookingAction, BookingStatus } from "./booking-constants";

/** One booking as the admin page's loader sends it (see admin-bookings.server.ts). */
export type AdminBookingItem = {
  id: string;
  when: string;
  startsAt: string;
  serviceType: string;
  status: BookingStatus;
  provider: string | null;
  customer: { name: string | null; email: string | null } | null;
  attendeeEmail: string | null;
  /** An unmatched booking's hint: the customer with the attendee's e-mail, not linked (decision 045). */
  emailMatch: { name: string; email: string; verified: boolean } | null;
  visitCreated: boolean;
  /** The buttons this booking offers, in BOOKING_ACTIONS order. */
  actions: BookingAction[];
};

const PROVIDER_LABELS: Record<string, string> = { cal_com: "Cal.com", calendly: "Calendly" };

// The buttons are component classes (app/tailwind.css, decision 076), the fields the kit's lean
// ones; the links keep their utilities (the high-contrast theme outlines pill links by their
// class names).
const primary = "admin-btn admin-btn-primary";
const secondary = "admin-btn admin-btn-secondary";
const secondaryLink =
  "inline-flex min-h-11 items-center justify-center rounded-full px-5 py-2 font-semibold focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 border-2 border-slate-500 text-slate-900 hover:bg-slate-100 dark:border-slate-400 dark:text-white dark:hover:bg-slate-800";

const BUTTON_LABELS: Record<BookingAction, string> = {
  assign: "Assign Customer",
  confirm: "Confirm",
  "create-visit": "Create Visit",
  cancel: "Cancel",
};

/**
 * A booking's buttons share one form (decision 076): each button posts its own `intent`, the
 * booking's id travels once. Only the button whose field it is validates that field: the others
 * are `formNoValidate`, so Confirm or Cancel never asks for an e-mail or a visit type. A booking
 * offers Assign (no customer yet) or Create Visit (a customer), never both, so the one field a
 * form may hold always belongs to its first button, the one Enter in that field presses.
 */
function BookingActions({
  booking: b,
  idPrefix,
  headingId,
  busy,
}: {
  booking: AdminBookingItem;
  idPrefix: string;
  headingId: string;
  busy: boolean;
}) {
  const button = (intent: BookingAction, validates = false) => (
    <button
      type="submit"
      name="intent"
      value={intent}
      formNoValidate={validates ? undefined : true}
      className={intent === "cancel" ? secondary : primary}
      disabled={busy}
      aria-describedby={headingId}
    >
      {BUTTON_LABELS[intent]}
    </button>
  );
  const offers = (intent: BookingAction) => b.actions.includes(intent);
  const suggested = (VISIT_TYPES as readonly string[]).includes(b.serviceType) ? b.serviceType : "";
  if (b.actions.length === 0) {
    return b.visitCreated ? (
      <p className="mt-3 font-semibold text-green-900 dark:text-green-200">Visit created</p>
    ) : null;
  }
  return (
    <Form method="post" className="mt-3 flex flex-wrap items-end gap-3" data-booking-form="">
      <input type="hidden" name="bookingId" value={b.id} />
      {offers("assign") ? (
        <div className="flex flex-wrap items-end gap-2">
          <Field
            lean
            label="Customer e-mail"
            inputProps={{
              id: `${idPrefix}e`,
              name: "customerEmail",
              type: "email",
              required: true,
              autoComplete: "off",
              defaultValue: b.emailMatch?.email ?? b.attendeeEmail ?? "",
            }}
          />
          {button("assign", true)}
        </div>
      ) : null}
      {offers("confirm") ? button("confirm") : null}
      {offers("create-visit") ? (
        <div className="flex flex-wrap items-end gap-2">
          <SelectField
            lean
            label="Visit type"
            selectProps={{ id: `${idPrefix}t`, name: "serviceType", required: true, defaultValue: suggested }}
          >
            <option value="" disabled>
              Select a service type
            </option>
            {VISIT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </SelectField>
          {button("create-visit", true)}
        </div>
      ) : null}
      {b.visitCreated ? <p className="font-semibold text-green-900 dark:text-green-200">Visit created</p> : null}
      {offers("cancel") ? button("cancel") : null}
    </Form>
  );
}

export function AdminBookingList({ items, emptyText }: { items: AdminBookingItem[]; emptyText: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  if (items.length === 0) return <p className="mt-4 text-slate-700 dark:text-slate-200">{emptyText}</p>;
  return (
    <ul className="mt-4 space-y-4">
      {items.map((b) => (
        <BookingCard key={b.id} booking={b} busy={busy} />
      ))}
    </ul>
  );
}

function BookingCard({ booking: b, busy }: { booking: AdminBookingItem; busy: boolean }) {
  // The card's ids (heading, fields) are React's: a few characters, where the booking's uuid
  // was 44 on each of six attributes (decision 076). Unique on the page, stable for hydration.
  const id = useId();
  const headingId = `${id}h`;
  return (
    <li aria-labelledby={headingId} className="list-card" data-testid="booking">
      <div className="row-head">
        <div>
          <h4 id={headingId} className="ink text-lg font-semibold">
            {`${b.serviceType}, `}
            <time dateTime={b.startsAt}>{b.when}</time>
          </h4>
          <p className="text-slate-800 dark:text-slate-100">
            {b.customer ? (
              `Customer: ${b.customer.name ? `${b.customer.name} (${b.customer.email})` : b.customer.email}`
            ) : (
              <>
                <strong>Unmatched</strong>
                {b.attendeeEmail ? `: booked as ${b.attendeeEmail}` : null}
              </>
            )}
          </p>
          {b.emailMatch ? (
            <p className="text-slate-800 dark:text-slate-100">
              {`Matches customer ${b.emailMatch.name} by e-mail${b.emailMatch.verified ? "" : " (unverified)"}`}
            </p>
          ) : null}
          {b.provider ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {`From ${PROVIDER_LABELS[b.provider] ?? b.provider}`}
            </p>
          ) : null}
        </div>
        <BookingStatusBadge status={b.status} />
      </div>
      <BookingActions booking={b} idPrefix={id} headingId={headingId} busy={busy} />
    </li>
  );
}

export function MoreLink({ to, label: text }: { to: string; label: string }) {
  return (
    <Link to={to} className={`${secondaryLink} mt-4`}>
      {text}
    </Link>
  );
}
