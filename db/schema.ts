import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
// The value lists of the CHECK constraints live in ./enums.ts, the floor: it imports nothing.
import type {
  BookingProvider,
  BookingSource,
  BookingStatus,
  CreditNotePayout,
  CreditNoteReason,
  DogCount,
  HealthFlag,
  ImageType,
  InvoiceLineKind,
  InvoiceStatus,
  LedgerEntryKind,
  MissedReason,
  OAuthProvider,
  PlanEventKind,
  PlanStatus,
  CancelReason,
  PaymentMethod,
  PaymentReversalKind,
  SkipReason,
  OutboxKind,
  OutboxStatus,
  QuoteStatus,
  Role,
  TipWay,
  TokenPurpose,
  VisitEventKind,
  VisitStatus,
  VisitType,
  YardSize,
} from "./enums";
export type * from "./enums";

/** Timestamps are written as Date or ISO strings and always read back as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string | null;
  /** Set when the person proved they read this address (a link, a reset, or Google/Facebook). */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  /**
   * Whether the customer has a plan that is not cancelled: kept by the database (triggers on
   * customer_plans, migration 0010), never written by the app. Serves the "No plan" filter.
   */
  has_open_plan: ColumnType<boolean, never, never>;
  /** A staff account the owner deactivated (decision 123): it cannot sign in, its sessions end. */
  deactivated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ProfilesTable {
  user_id: string;
  full_name: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserRolesTable {
  user_id: string;
  role: Role;
  created_at: CreatedAt;
}

export interface OAuthAccountsTable {
  provider: OAuthProvider;
  provider_user_id: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  /** Null while a visitor is mid-way through an OAuth round trip. */
  user_id: string | null;
  data: ColumnType<Record<string, unknown>, string, string>;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface ServicesTable {
  id: Generated<string>;
  customer_id: string;
  service_type: VisitType;
  service_date: Timestamp;
  status: ColumnType<VisitStatus, VisitStatus | undefined, VisitStatus>;
  notes: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  /** The booking this visit was created from; unique, so a booking makes at most one visit. */
  booking_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The missed visit this one returns to (the missed-spot promise). */
  return_visit_of: string | null;
  missed_reason: MissedReason | null;
  missed_note: string | null;
  health_flags: ColumnType<HealthFlag[], HealthFlag[] | undefined, HealthFlag[]>;
  health_note: string | null;
  completed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The customer plan this visit was made from (docs/decisions/090). */
  plan_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The plan's service day this visit stands for ("YYYY-MM-DD"); unique per plan. */
  plan_slot: ColumnType<string | null, string | null | undefined, string | null>;
  /** The staff member who works this visit (decision 123); null: nobody yet. */
  assigned_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** Put with its staff member by hand (migration 0039): the day's split leaves it alone. */
  assigned_by_hand: ColumnType<boolean, boolean | undefined, boolean>;
  /** When an admin changed it by hand: from then on it no longer follows its plan. */
  plan_left_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When the admin pressed "On my way" (migration 0013); once per visit. */
  on_my_way_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Why it is skipped; null unless status is 'skipped'. */
  skip_reason: ColumnType<SkipReason | null, SkipReason | null | undefined, SkipReason | null>;
}

/** Calendar days are read and written as "YYYY-MM-DD" (db/connection.ts parses them so). */
type Day = string;

/** A customer's subscription to a catalogue plan (docs/decisions/090). */
export interface CustomerPlansTable {
  id: Generated<string>;
  customer_id: string;
  /** The Sanity document id of the catalogue plan, and its name when the plan was made or changed. */
  catalogue_plan_id: string;
  catalogue_plan_name: string;
  visits_per_week: number;
  /** ISO weekdays, Monday 1 to Friday 5, ascending; as many as visits_per_week. */
  weekdays: number[];
  dog_count: number;
  yard_size: YardSize;
  start_date: Day;
  /** The first day the current weekdays apply (a change from a date); null means start_date. */
  schedule_from: ColumnType<Day | null, Day | null | undefined, Day | null>;
  notes: string | null;
  status: ColumnType<PlanStatus, PlanStatus | undefined, PlanStatus>;
  paused_from: ColumnType<Day | null, Day | null | undefined, Day | null>;
  paused_until: ColumnType<Day | null, Day | null | undefined, Day | null>;
  cancelled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_visit_date: ColumnType<Day | null, Day | null | undefined, Day | null>;
  /** Visits from this day on are skipped "payment_overdue" (docs/decisions/104); null: not held. */
  payment_hold_from: ColumnType<Day | null, Day | null | undefined, Day | null>;
  /**
   * The price locked on the plan (docs/decisions/116): the catalogue plan's monthly price and the
   * add-ons for its dogs, in cents, when it started or last changed. Null until locked.
   */
  price_cents: ColumnType<number | null, number | null | undefined, number | null>;
  add_on_cents: ColumnType<number | null, number | null | undefined, number | null>;
  /** A new catalogue price and the month's first day it applies from; all null when none. */
  pending_price_cents: ColumnType<number | null, number | null | undefined, number | null>;
  pending_add_on_cents: ColumnType<number | null, number | null | undefined, number | null>;
  pending_price_from: ColumnType<Day | null, Day | null | undefined, Day | null>;
  /** Why it was cancelled, when the customer or admin said (migration 0046); optional. */
  cancel_reason: ColumnType<CancelReason | null, CancelReason | null | undefined, CancelReason | null>;
  cancel_note: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One line of a customer plan's history: who changed what, when. */
export interface CustomerPlanEventsTable {
  id: Generated<string>;
  plan_id: string;
  actor_id: string | null;
  kind: PlanEventKind;
  detail: string | null;
  created_at: CreatedAt;
}

export interface ServiceEventsTable {
  id: Generated<string>;
  service_id: string;
  actor_id: string | null;
  kind: VisitEventKind;
  from_status: VisitStatus | null;
  to_status: VisitStatus | null;
  detail: string | null;
  created_at: CreatedAt;
}

/** A change a phone queued offline and sent later, by its idempotency key (docs/decisions/127). */
export interface OfflineChangesTable {
  user_id: string;
  idempotency_key: string;
  service_id: string | null;
  intent: "complete" | "miss" | "notes" | "photo";
  status: number;
  message: string;
  created_at: CreatedAt;
}

/** One press of "Show gate code" (migration 0042, decision 128): who saw whose code, on which visit. */
export interface GateCodeViewsTable {
  id: Generated<string>;
  customer_id: string;
  /** Null once the visit was deleted; the view stays in the customer's log. */
  visit_id: string | null;
  viewer_id: string | null;
  viewed_at: CreatedAt;
}

/** One per customer. gate_code is secret: only the customer and admins see it (docs/decisions/032). */
export interface YardProfilesTable {
  user_id: string;
  street: string | null;
  city: string | null;
  zip: string | null;
  gate_code: string | null;
  gate_location: string | null;
  dog_count: ColumnType<number, number | undefined, number>;
  dog_names: string | null;
  loose_dog: ColumnType<boolean, boolean | undefined, boolean>;
  hazards: string | null;
  access_notes: string | null;
  notify_visit_emails: ColumnType<boolean, boolean | undefined, boolean>;
  /** E.164 ("+17025550123"); texts go to it only with text_consent_at set (migration 0013). */
  mobile_phone: string | null;
  text_consent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Both set or both null, within range (migration 0012). Admins only: a customer never sees them. */
  latitude: ColumnType<number | null, number | null | undefined, number | null>;
  longitude: ColumnType<number | null, number | null | undefined, number | null>;
  location_updated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** An admin's hand-made order of one day's route (docs/decisions/093). */
export interface RouteOrdersTable {
  day: ColumnType<string, string, string>;
  route_key: string;
  visit_ids: string[];
  updated_by: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A staff member's route settings (migration 0039, docs/decisions/126). */
export interface StaffRoutesTable {
  user_id: string;
  works_route: ColumnType<boolean, boolean | undefined, boolean>;
  start_name: string;
  start_latitude: number;
  start_longitude: number;
  end_name: string | null;
  end_latitude: number | null;
  end_longitude: number | null;
  /** Minutes after midnight, business time. */
  day_starts_at: number;
  day_ends_at: number;
  /** Bit 0 Sunday … bit 6 Saturday. */
  weekdays: number;
  updated_by: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Whose customer a customer is: the technician who keeps them week to week (migration 0039). */
export interface CustomerTechniciansTable {
  customer_id: string;
  technician_id: string;
  placed_by: "split" | "owner";
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A number that replied STOP (and has not replied START since): never texted. */
export interface TextOptOutsTable {
  phone: string;
  opted_out_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An inbound keyword message handled, by Twilio's MessageSid: a replay is recognised. */
export interface TextRepliesTable {
  message_sid: string;
  phone: string;
  keyword: "stop" | "start" | "help";
  received_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type OutboxAttachment = {
  key: string;
  filename: string;
  contentType: string;
  cid?: string;
  /**
   * The sentence of the text body and the fragment of the HTML body that speak of this
   * attachment: taken out when it cannot be attached at send time (deleted, unreadable), so that
   * the e-mail never says "attached" without it (app/features/outbox/attachment-mentions.server.ts).
   */
  mention?: { text: string; html: string };
};

/** The one review request a customer ever gets (migration 0049, decision 133). */
export interface ReviewRequestsTable {
  customer_id: string;
  /** The completed visit that earned it. */
  visit_id: string | null;
  requested_at: CreatedAt;
}

/** A customer's private "Tell us what to improve" note (migration 0049). */
export interface CustomerFeedbackTable {
  id: Generated<string>;
  customer_id: string;
  message: string;
  created_at: CreatedAt;
}

export interface OutboxTable {
  id: Generated<string>;
  kind: OutboxKind;
  to_address: string;
  reply_to: string | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: ColumnType<OutboxAttachment[], string | undefined, string>;
  dedupe_key: string | null;
  /** What the message is about (a visit's id), so its page can show the e-mail's status. */
  related_id: string | null;
  status: ColumnType<OutboxStatus, OutboxStatus | undefined, OutboxStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Who holds a `sending` row: only that worker writes its outcome (docs/decisions/035). */
  claim_token: ColumnType<string | null, string | null | undefined, string | null>;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** One of many queued at once (the month's invoices): sent after every other due message (decision 106). */
  bulk: ColumnType<boolean, boolean | undefined, boolean>;
  /** A time-bound message ("On my way") is dropped, not sent, after this (migration 0023). */
  expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The customer a text is for: their consent is checked again when it is sent (migration 0023). */
  recipient_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

/** "Text me again" (migration 0023): open until expires_at, confirmed by the number's START/YES. */
export interface TextOptInRequestsTable {
  id: Generated<string>;
  user_id: string;
  phone: string;
  requested_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface ServiceImagesTable {
  id: Generated<string>;
  service_id: string;
  /** The storage key: {userId}/{visitId}/{before|after}_{timestamp}.{extension} */
  image_url: string;
  image_type: ImageType;
  content_type: string | null;
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  uploaded_by: string | null;
  created_at: CreatedAt;
}

export interface BookingsTable {
  id: Generated<string>;
  /** Null until the booking is linked to a customer (signed reference, verified e-mail or the admin). */
  customer_id: string | null;
  service_type: string;
  booking_date: Timestamp;
  status: ColumnType<BookingStatus, BookingStatus | undefined, BookingStatus>;
  source: ColumnType<BookingSource, BookingSource | undefined, BookingSource>;
  external_id: string | null;
  created_at: CreatedAt;
  provider: BookingProvider | null;
  attendee_email: string | null;
  /** The calendar's event type (Cal.com slug, Calendly event type URI). */
  event_type: string | null;
  ends_at: Timestamp | null;
  /** The time the calendar stamped on the last delivery applied: older deliveries lose. */
  provider_event_at: Timestamp | null;
  /** The provider id of the booking this one replaced. */
  rescheduled_from: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Its e-mails are outbox rows with `related_id` = its id (docs/decisions/034). */
export interface QuoteRequestsTable {
  id: Generated<string>;
  name: string;
  phone: string;
  email: string;
  address: string;
  zip: string;
  dogs: DogCount;
  yard_size: YardSize;
  service: string;
  message: string | null;
  status: ColumnType<QuoteStatus, QuoteStatus | undefined, QuoteStatus>;
  outside_service_area: ColumnType<boolean, boolean | undefined, boolean>;
  /** The instant estimate shown to the visitor, in cents; null when the plan has no monthly price. */
  estimate_cents: number | null;
  estimate_label: string | null;
  /** Same request twice within a short window is stored once: a hash of its fields. */
  dedupe_key: string;
  client_key: string | null;
  /** The account the request became ("Create customer and plan", migration 0011); null until then. */
  customer_id: ColumnType<string | null, string | null | undefined, string | null>;
  converted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** true: the e-mail already had an account, which got the plan; false: the account was made. */
  customer_existed: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  window_started_at: Timestamp;
}

export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  purpose: TokenPurpose;
  expires_at: Timestamp;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

export interface UserTotpTable {
  user_id: string;
  secret: string;
  enabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_used_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
}

export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

export interface SignInChallengesTable {
  id_hash: string;
  user_id: string;
  failed_attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** A per-year counter of invoice numbers, locked by the transaction that allocates them. */
export interface InvoiceNumberCountersTable {
  year: number;
  last_number: number;
}

/** An invoice (docs/decisions/100): one per plan and month, or one-time services alone. */
export interface InvoicesTable {
  id: Generated<string>;
  /** "2027-000123": unique, allocated without gaps per year. */
  number: string;
  customer_id: string;
  plan_id: string | null;
  /** The first day of the month it is for. */
  period_month: Day;
  status: ColumnType<InvoiceStatus, InvoiceStatus | undefined, InvoiceStatus>;
  issued_on: ColumnType<Day | null, Day | null | undefined, Day | null>;
  due_on: ColumnType<Day | null, Day | null | undefined, Day | null>;
  total_cents: ColumnType<number, number | undefined, number>;
  /**
   * What paid it: payments (less reversals and lost disputes, and less refunds made before the
   * ledger, 0021) and credit on file applied to it. Open invoices owe total_cents - paid_cents.
   */
  paid_cents: ColumnType<number, number | undefined, number>;
  /** The part of paid_cents that was credit on file ("Credit from previous invoices"). */
  credit_applied_cents: ColumnType<number, number | undefined, number>;
  /** Refunded of its payments, shown on it; a refund never makes it owed again (0021). */
  refunded_cents: ColumnType<number, number | undefined, number>;
  /** The part of total_cents that is tips for technicians (0048): left out of its "invoice" entry. */
  tip_cents: ColumnType<number, number | undefined, number>;
  /** A voided invoice issued again: the new one ("Issue again", 0021). */
  reissued_as: ColumnType<string | null, string | null | undefined, string | null>;
  footer: string | null;
  paid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  voided_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  uncollectible_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Collection (docs/decisions/104): off-session charges tried, failures, the next try, the pause. */
  charge_attempts: ColumnType<number, number | undefined, number>;
  first_failed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_failed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  next_charge_on: ColumnType<Day | null, Day | null | undefined, Day | null>;
  plan_paused_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  plan_resumed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Per month, status and due day: the invoices' count and sums, kept by triggers (0019). */
export interface InvoiceTalliesTable {
  period_month: Day;
  status: InvoiceStatus;
  due_on: Day | null;
  /** The customer's shard, 0 to 15 (migration 0037): readers sum the shards. */
  shard: ColumnType<number, never, never>;
  invoices: number;
  total_cents: ColumnType<string, never, never>;
  paid_cents: ColumnType<string, never, never>;
}

/** One failed off-session charge of an invoice (docs/decisions/104). */
export interface InvoiceChargeFailuresTable {
  id: Generated<string>;
  invoice_id: string;
  attempt: number;
  payment_intent_id: string | null;
  reason: string;
  failed_at: Timestamp;
}

/** A change of a plan's terms from a day on, with the terms before it (docs/decisions/117). */
export interface PlanChangesTable {
  id: Generated<string>;
  plan_id: string;
  from_day: Day;
  old_weekdays: number[];
  /** The monthly price before the change, in cents; null when none was locked. */
  old_monthly_cents: number | null;
  /** Prorated by the days (a dated change) rather than the slots (0032). */
  by_days: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

/** What a plan change makes a month owe more (or less); billed on the plan's next invoice. */
export interface PlanAdjustmentsTable {
  id: Generated<string>;
  plan_id: string;
  change_id: string;
  month: Day;
  amount_cents: number;
  description: string;
  invoice_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
}

export interface InvoiceLinesTable {
  id: Generated<string>;
  invoice_id: string;
  kind: InvoiceLineKind;
  description: string;
  /** The visit billed (one-time service) or credited (skip credit); unique per kind. */
  visit_id: string | null;
  amount_cents: number;
  position: ColumnType<number, number | undefined, number>;
}

export interface PaymentsTable {
  id: Generated<string>;
  invoice_id: string;
  method: PaymentMethod;
  amount_cents: number;
  /** The refunds of this payment so far; with reversals never more than amount_cents (a CHECK). */
  refunded_cents: ColumnType<number, number | undefined, number>;
  /** The part beyond what its invoice owed when it came: kept as credit on file (0021). */
  to_credit_cents: ColumnType<number, number | undefined, number>;
  /** Taken back out of it: a bounced check reversed, a dispute lost (payment_reversals). */
  reversed_cents: ColumnType<number, number | undefined, number>;
  paid_on: Day;
  note: string | null;
  recorded_by: string | null;
  /** Unique: a second press of "Record payment" with the same key finds the first payment. */
  idempotency_key: string;
  created_at: CreatedAt;
  /** Set for method "stripe" only, unique: one PaymentIntent is one payment (0016). */
  stripe_payment_intent_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** A dispute (chargeback) opened in Stripe: when, and what Stripe said. */
  disputed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  dispute_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** Stripe closed the dispute (won, lost, a warning closed; 0030): null while it is open. */
  dispute_closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface RefundsTable {
  id: Generated<string>;
  payment_id: string;
  amount_cents: number;
  refunded_on: Day;
  note: string | null;
  recorded_by: string | null;
  idempotency_key: string;
  created_at: CreatedAt;
  /** The Stripe refund it is, unique (0016): the page's refund and the webhook's are one. */
  stripe_refund_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A per-year counter of credit note numbers ("CN-2027-0000123"). */
export interface CreditNoteNumberCountersTable {
  year: number;
  last_number: number;
}

/** A numbered document that gives a customer money back, as credit on file or a refund (0021). */
export interface CreditNotesTable {
  id: Generated<string>;
  number: string;
  customer_id: string;
  invoice_id: string | null;
  reason: CreditNoteReason;
  paid_out: CreditNotePayout;
  amount_cents: number;
  issued_on: Day;
  description: string;
  /** The refund that paid it out, when paid_out is "refund". */
  refund_id: string | null;
  idempotency_key: string;
  created_at: CreatedAt;
}

/** What a credit note gives back, visit by visit (0028, docs/decisions/115). */
export interface CreditNoteLinesTable {
  id: Generated<string>;
  credit_note_id: string;
  plan_id: string | null;
  /** The month of the plan the visit was billed in ("YYYY-MM-01"). */
  month: Day;
  /** The plan's service day credited. */
  slot: Day;
  /** The visit credited; null for a slot beyond the visits made (the horizon). */
  visit_id: string | null;
  /** A plan change's adjustment given back (0032; its slot is its month's first day). */
  adjustment_id: ColumnType<string | null, string | null | undefined, string | null>;
  description: string;
  amount_cents: number;
  position: ColumnType<number, number | undefined, number>;
}

/** Money taken back out of a payment: a bounced check reversed, a dispute lost (0021). */
export interface PaymentReversalsTable {
  id: Generated<string>;
  payment_id: string;
  kind: PaymentReversalKind;
  amount_cents: number;
  reversed_on: Day;
  note: string | null;
  recorded_by: string | null;
  idempotency_key: string;
  created_at: CreatedAt;
  /** The Stripe dispute a lost dispute is (0030), unique: a replayed event stores nothing more. */
  stripe_dispute_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Of a lost dispute (0033): the part taken from the credit on file the payment had left. */
  from_credit_cents: ColumnType<number, number | undefined, number>;
  /** Of a lost dispute (0033): the part taken from a written-off invoice, written off with it. */
  written_off_cents: ColumnType<number, number | undefined, number>;
}

/**
 * One Stripe dispute of a payment (0033, docs/decisions/121): open until Stripe closes it; its
 * fee is Stripe's, net of a fee given back, the business's cost (never a ledger entry).
 */
export interface PaymentDisputesTable {
  stripe_dispute_id: string;
  payment_id: string;
  /** Stripe's status as last read ("needs_response", "lost", "won", …). */
  status: string;
  fee_cents: ColumnType<number, number | undefined, number>;
  opened_at: ColumnType<Date, Date | string, Date | string>;
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/**
 * The customer ledger (0021, docs/decisions/113): append-only, written by triggers from the
 * documents above; a customer's balance is the sum of their entries' amounts.
 */
export interface LedgerEntriesTable {
  id: ColumnType<string, never, never>;
  customer_id: string;
  kind: LedgerEntryKind;
  /** Positive: owed to the business (an invoice, a refund paid out); negative: a payment, a credit. */
  amount_cents: number;
  occurred_on: Day;
  invoice_id: string | null;
  payment_id: string | null;
  refund_id: string | null;
  credit_note_id: string | null;
  reversal_id: string | null;
  /** A tip's entries (0048): the tip and the technician it belongs to. */
  tip_id: ColumnType<string | null, string | null | undefined, never>;
  technician_id: ColumnType<string | null, string | null | undefined, never>;
  entry_key: string;
  created_at: CreatedAt;
}

/**
 * A tip for the technician of a visit (0048, docs/decisions/131): one per visit, paid by the card
 * on file (paid_at once Stripe charged it) or on the customer's next invoice (invoice_id).
 */
export interface TipsTable {
  id: Generated<string>;
  visit_id: string;
  customer_id: string;
  technician_id: string;
  amount_cents: number;
  way: TipWay;
  given_at: ColumnType<Date, Date | string | undefined, never>;
  given_on: Day;
  stripe_payment_intent_id: ColumnType<string | null, string | null | undefined, string | null>;
  paid_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  invoice_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Per month and kind, the ledger's entries counted and summed (kept by a trigger, 0021). */
export interface LedgerTalliesTable {
  month: Day;
  kind: LedgerEntryKind;
  /** The customer's shard, 0 to 15 (migration 0037): readers sum the shards. */
  shard: ColumnType<number, never, never>;
  entries: number;
  amount_cents: ColumnType<string, never, never>;
}

/** Who a user is at Stripe, and what is shown of their card on file (the card stays at Stripe). */
export interface StripeCustomersTable {
  user_id: string;
  stripe_customer_id: string;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  /** When Stripe made the SetupIntent that saved this card (an older one never replaces it). */
  card_added_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Each webhook event id once (a replay finds its row and changes nothing). */
export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: CreatedAt;
}

/** A failed PaymentIntent's decline reason, for the recovery of failed payments. */
export interface StripePaymentFailuresTable {
  id: Generated<string>;
  invoice_id: string;
  payment_intent_id: string | null;
  reason: string;
  failed_at: Timestamp;
}

/** A "Pay now" Checkout session of an invoice, expired at Stripe when the invoice settles another way. */
export interface StripeCheckoutSessionsTable {
  id: string;
  invoice_id: string;
  amount_cents: number;
  payment_intent_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Completed at Stripe, the payment still at the bank: holds other charges of the invoice. */
  processing_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** No longer payable (paid, expired, failed). */
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

/** A sign-up at /start in progress (migration 0044): its answers, until they expire. */
export interface SignUpsTable {
  id: Generated<string>;
  answers: ColumnType<Record<string, unknown>, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  customer_id: string | null;
}

/** A visitor outside the service area who asked to hear when it opens (migration 0044). */
export interface WaitlistEntriesTable {
  id: Generated<string>;
  email: string;
  zip: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** The Reports tab's aggregates (migration 0047), rewritten whole by the reports:refresh job. */
type Count = ColumnType<number, number, number>;
type BigCents = ColumnType<string, number | string, number | string>;
export interface ReportMonthsTable {
  month: Day;
  mrr_cents: BigCents;
  paying_customers: Count;
  new_cents: BigCents;
  expansion_cents: BigCents;
  contraction_cents: BigCents;
  churned_cents: BigCents;
  reactivated_cents: BigCents;
  active_customers: Count;
  new_customers: Count;
  lost_customers: Count;
}
export interface ReportCancellationsTable {
  month: Day;
  /** A CANCEL_REASONS value, or "" when none was given. */
  reason: string;
  plans: Count;
}
export interface ReportCohortsTable {
  cohort_month: Day;
  month: Day;
  cohort_size: Count;
  active: Count;
}
export interface ReportVisitMonthsTable {
  month: Day;
  status: "completed" | "skipped" | "missed";
  /** The skip or missed reason, or "". */
  reason: string;
  visits: Count;
  return_visits: Count;
}
export interface ReportFailedPaymentMonthsTable {
  month: Day;
  failed: Count;
  failed_cents: BigCents;
  recovered: Count;
  recovered_cents: BigCents;
}
export interface ReportRefreshesTable {
  id: ColumnType<number, number | undefined, number>;
  refreshed_at: Timestamp;
  took_ms: number;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  user_roles: UserRolesTable;
  oauth_accounts: OAuthAccountsTable;
  sessions: SessionsTable;
  services: ServicesTable;
  service_images: ServiceImagesTable;
  bookings: BookingsTable;
  quote_requests: QuoteRequestsTable;
  rate_limits: RateLimitsTable;
  account_tokens: AccountTokensTable;
  user_totp: UserTotpTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  service_events: ServiceEventsTable;
  offline_changes: OfflineChangesTable;
  yard_profiles: YardProfilesTable;
  gate_code_views: GateCodeViewsTable;
  route_orders: RouteOrdersTable;
  staff_routes: StaffRoutesTable;
  customer_technicians: CustomerTechniciansTable;
  outbox: OutboxTable;
  review_requests: ReviewRequestsTable;
  customer_feedback: CustomerFeedbackTable;
  customer_plans: CustomerPlansTable;
  customer_plan_events: CustomerPlanEventsTable;
  plan_changes: PlanChangesTable;
  plan_adjustments: PlanAdjustmentsTable;
  credit_note_number_counters: CreditNoteNumberCountersTable;
  credit_notes: CreditNotesTable;
  credit_note_lines: CreditNoteLinesTable;
  invoice_number_counters: InvoiceNumberCountersTable;
  invoices: InvoicesTable;
  invoice_charge_failures: InvoiceChargeFailuresTable;
  invoice_lines: InvoiceLinesTable;
  invoice_tallies: InvoiceTalliesTable;
  report_months: ReportMonthsTable;
  report_cancellations: ReportCancellationsTable;
  report_cohorts: ReportCohortsTable;
  report_visit_months: ReportVisitMonthsTable;
  report_failed_payment_months: ReportFailedPaymentMonthsTable;
  report_refreshes: ReportRefreshesTable;
  ledger_entries: LedgerEntriesTable;
  ledger_tallies: LedgerTalliesTable;
  payment_reversals: PaymentReversalsTable;
  payment_disputes: PaymentDisputesTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  stripe_customers: StripeCustomersTable;
  stripe_events: StripeEventsTable;
  stripe_payment_failures: StripePaymentFailuresTable;
  stripe_checkout_sessions: StripeCheckoutSessionsTable;
  text_opt_outs: TextOptOutsTable;
  text_replies: TextRepliesTable;
  text_opt_in_requests: TextOptInRequestsTable;
  tips: TipsTable;
  sign_ups: SignUpsTable;
  waitlist_entries: WaitlistEntriesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Profile = Selectable<ProfilesTable>;
export type Visit = Selectable<ServicesTable>;
export type CustomerPlan = Selectable<CustomerPlansTable>;
export type NewCustomerPlan = Insertable<CustomerPlansTable>;
export type CustomerPlanEvent = Selectable<CustomerPlanEventsTable>;
export type NewVisit = Insertable<ServicesTable>;
export type VisitImage = Selectable<ServiceImagesTable>;
export type NewVisitImage = Insertable<ServiceImagesTable>;
export type Booking = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;
export type QuoteRequest = Selectable<QuoteRequestsTable>;
export type NewQuoteRequest = Insertable<QuoteRequestsTable>;
export type QuoteRequestUpdate = Updateable<QuoteRequestsTable>;
export type Invoice = Selectable<InvoicesTable>;
export type NewInvoice = Insertable<InvoicesTable>;
export type InvoiceLine = Selectable<InvoiceLinesTable>;
export type NewInvoiceLine = Insertable<InvoiceLinesTable>;
export type Payment = Selectable<PaymentsTable>;
export type Refund = Selectable<RefundsTable>;
export type CreditNote = Selectable<CreditNotesTable>;
export type LedgerEntry = Selectable<LedgerEntriesTable>;
export type Tip = Selectable<TipsTable>;
export type StripeCustomer = Selectable<StripeCustomersTable>;
