/**
 * The floor of the app: every list of values a column's CHECK constraint holds, and its type.
 * This module imports nothing, so db/schema.ts, the features and browser code can all read it
 * without an arrow running back up (docs/decisions/016). Labels and other words for people stay
 * in each feature's *-constants.ts, which re-exports the lists it needs from here.
 *
 * The migrations are frozen and carry their own copies; db/constants-match-checks.test.ts
 * proves that the database and these lists agree, so changing a list needs a new migration.
 */

// Accounts
// Staff roles (decision 123, migration 0034); a user without one is a customer.
export const ROLES = ["owner", "office", "technician"] as const;
export type Role = (typeof ROLES)[number];

export const OAUTH_PROVIDERS = ["google", "facebook"] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** What a single-use e-mailed link is for (account_tokens.purpose). */
export const TOKEN_PURPOSES = ["verify-email", "reset-password", "set-password"] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

// Visits (rows of `services`: the table keeps the spec's name)
export const VISIT_TYPES = [
  "Weekly Service",
  "Twice Weekly Service",
  // Added with customer plans (migration 0008): the thrice-weekly catalogue plan's visits.
  "Thrice Weekly Service",
  "Desert Dash",
  "Desert Refresh",
  "Yard Refresh",
  "Sanitize & Deodorize",
  "Trash Bin Clean",
] as const;
export type VisitType = (typeof VISIT_TYPES)[number];

// "in_progress" left in migration 0003 (docs/decisions/030): nothing set it, and a visit in the
// field is still "scheduled" until it has an outcome.
export const VISIT_STATUSES = ["scheduled", "completed", "missed", "skipped", "cancelled"] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

/** Why a visit was missed. */
export const MISSED_REASONS = ["locked_gate", "dog_in_yard", "weather", "other"] as const;
export type MissedReason = (typeof MISSED_REASONS)[number];

/** The health observations an admin can tick on a visit. */
export const HEALTH_FLAGS = [
  "loose_stool",
  "blood_in_stool",
  "worms_or_foreign_objects",
  "unusual_amount",
  "yard_hazard",
] as const;
export type HealthFlag = (typeof HEALTH_FLAGS)[number];

/** What the visit history records (service_events.kind). */
export const VISIT_EVENT_KINDS = [
  "status",
  "rescheduled",
  "return_visit",
  "notes",
  "health_notes",
  "media_deleted",
  "email_skipped",
  // An admin changed a visit made from a plan by hand: it no longer follows the plan.
  "left_plan",
  // "On my way" was sent (migration 0018): the History says who pressed it and when.
  "on_my_way",
  // Who works the visit changed (migration 0042): the History says who moved it from whom to whom.
  "assigned",
] as const;
export type VisitEventKind = (typeof VISIT_EVENT_KINDS)[number];

// Media of a visit (service_images.image_type)
export const IMAGE_TYPES = ["before", "after"] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

// Bookings
export const BOOKING_STATUSES = [
  "pending",
  "confirmed",
  "completed",
  "cancelled",
  // The calendar moved the booking: a new booking replaces this one.
  "rescheduled",
  // The owner cancelled in the calendar and asked the customer to pick another time.
  "reschedule_requested",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_SOURCES = ["calendar", "admin", "website"] as const;
export type BookingSource = (typeof BOOKING_SOURCES)[number];

/** The external calendars whose signed webhooks write bookings. */
export const BOOKING_PROVIDERS = ["cal_com", "calendly"] as const;
export type BookingProvider = (typeof BOOKING_PROVIDERS)[number];

// Quote requests
export const QUOTE_STATUSES = ["new", "contacted", "won", "lost"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const DOG_COUNTS = ["1", "2", "3", "4+"] as const;
export type DogCount = (typeof DOG_COUNTS)[number];

export const YARD_SIZES = ["small", "medium", "large"] as const;
export type YardSize = (typeof YARD_SIZES)[number];

// The e-mail outbox (docs/decisions/031): every e-mail of the product is one row of `outbox`.
export const OUTBOX_KINDS = [
  "visit_completed",
  "visit_missed",
  "quote_owner",
  "quote_visitor",
  "account_verification",
  "account_password_reset",
  // A customer plan changed: to the customer, and to the owner's address.
  "plan_customer",
  "plan_owner",
  // A customer made from a quote request: the "Set your password" link.
  "account_invite",
  "other",
  // "Your technician is on the way" (migration 0013): the e-mail, and the text message.
  "on_my_way",
  "text_on_my_way",
  // A failed payment's recovery (migration 0017): the failure, the pause for it, the resume.
  "payment_failed",
  "payment_paused",
  "payment_resumed",
  // Billing's everyday e-mails (migration 0020): "Your invoice" when one is issued, and the
  // receipt of each payment recorded.
  "invoice_issued",
  "payment_receipt",
  // "Text me again" (migration 0023): the text that asks the number to reply START.
  "text_opt_in",
  // A new catalogue price for the customer's plan, and the day it applies (migration 0029).
  "price_change",
  // A dispute lost at the customer's bank (migration 0030): to the owner's address.
  "dispute_lost",
  // Review requests (migration 0049): the one e-mail that asks for a Google review, and a
  // customer's private "Tell us what to improve" note, to the owner's address.
  "review_request",
  "customer_feedback",
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** The outbox rows that are text messages (to_address is an E.164 number), not e-mails. */
export const OUTBOX_TEXT_KINDS = ["text_on_my_way", "text_opt_in"] as const satisfies readonly OutboxKind[];

/**
 * pending: waiting for its first or next attempt (attempts and last_error say which);
 * sending: claimed by a worker (until locked_until, after which another may take it);
 * sent; failed: given up after the last attempt; skipped: no SMTP_URL when it was enqueued.
 */
export const OUTBOX_STATUSES = ["pending", "sending", "sent", "failed", "skipped"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

// Customer plans (a customer's subscription to a catalogue plan)
/**
 * active: visits are made for it; paused: active, but its visits from paused_from to
 * paused_until are skipped; cancelled: no visit after last_visit_date.
 */
export const PLAN_STATUSES = ["active", "paused", "cancelled"] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

/** Why a customer left, asked at cancel (customer_plans.cancel_reason, migration 0046); optional. */
export const CANCEL_REASONS = ["moved", "price", "service", "no_longer_needed", "other"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Why a visit is skipped (services.skip_reason; null for any other status). */
export const SKIP_REASONS = ["customer", "paused", "payment_overdue", "admin"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What a plan's history records (customer_plan_events.kind). */
export const PLAN_EVENT_KINDS = [
  "started",
  "changed",
  "paused",
  "resumed",
  "cancelled",
  "visit_skipped",
  "skip_undone",
] as const;
export type PlanEventKind = (typeof PLAN_EVENT_KINDS)[number];

/** The service weekdays a plan may use: ISO numbers, Monday 1 to Friday 5. */
export const PLAN_WEEKDAYS = [1, 2, 3, 4, 5] as const;
export type PlanWeekday = (typeof PLAN_WEEKDAYS)[number];

// Billing (docs/decisions/100)
/**
 * draft: being made, not yet sent; open: issued and owed; paid: paid in full; void: cancelled by
 * an admin (nothing owed); uncollectible: written off.
 */
export const INVOICE_STATUSES = ["draft", "open", "paid", "void", "uncollectible"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** What an invoice line is (invoice_lines.kind); a skip credit is the only negative one. */
export const INVOICE_LINE_KINDS = [
  "plan_month",
  "prorated_month",
  "one_time_service",
  "skip_credit",
  // A plan change's adjustment of a month, either sign (migration 0029, docs/decisions/117).
  "plan_change",
  // A technician's tip on the customer's next invoice (0048, docs/decisions/131).
  "tip",
  // The initial clean a sign-up at /start pays with its first month (migration 0044).
  "initial_clean",
] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/**
 * Invoice numbers are "YYYY-" and the year's sequence, zero-padded to at least 6 digits and at
 * most 8 (migration 0022: 10 million invoices a year and more; the numbers 0014 issued, 6 digits,
 * stay as they are). The CHECKs on invoices.number and invoice_number_counters.last_number state
 * the same; db/constants-match-checks.test.ts compares them.
 */
export const INVOICE_SEQUENCE_MIN_DIGITS = 6;
export const INVOICE_SEQUENCE_MAX = 99_999_999;

/** The invoice number of the year's `sequence`-th invoice: "2027-000123", "2027-1000000". */
export function invoiceNumber(year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > INVOICE_SEQUENCE_MAX) {
    throw new RangeError(`An invoice sequence runs from 1 to ${INVOICE_SEQUENCE_MAX}: ${sequence}`);
  }
  return `${year}-${String(sequence).padStart(INVOICE_SEQUENCE_MIN_DIGITS, "0")}`;
}

/** How a payment was made (payments.method): the first four are recorded by hand. */
export const PAYMENT_METHODS = ["cash", "check", "card_in_person", "other", "stripe"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What a customer ledger entry records (0021, docs/decisions/113). */
export const LEDGER_ENTRY_KINDS = [
  "invoice",
  "invoice_void",
  "write_off",
  "payment",
  "refund",
  "credit_note",
  "payment_reversed",
  "dispute_lost",
  // A technician's tip (0048, docs/decisions/131): given (+), paid by card (−), its invoice voided (−).
  "tip",
  "tip_payment",
  "tip_void",
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/** How a tip is paid (0048): by the card on file, or on the customer's next invoice. */
export const TIP_WAYS = ["card", "invoice"] as const;
export type TipWay = (typeof TIP_WAYS)[number];

/** Why a credit note gives money back (0021). */
export const CREDIT_NOTE_REASONS = [
  "refund",
  "cancellation",
  "business_cancelled",
  "weather",
  "plan_hold",
  "goodwill",
  // What a voided invoice credited, given back (0032): a void never takes away what was owed back.
  "invoice_void",
] as const;
export type CreditNoteReason = (typeof CREDIT_NOTE_REASONS)[number];

/** How a credit note gives it back: as credit on file, or paid out to the card or in cash. */
export const CREDIT_NOTE_PAYOUTS = ["credit", "refund"] as const;
export type CreditNotePayout = (typeof CREDIT_NOTE_PAYOUTS)[number];

/** Money that came back out of a payment: a bounced check, a dispute lost (0021). */
export const PAYMENT_REVERSAL_KINDS = ["reversed", "dispute_lost"] as const;
export type PaymentReversalKind = (typeof PAYMENT_REVERSAL_KINDS)[number];
