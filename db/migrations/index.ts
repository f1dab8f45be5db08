import type { Migration } from "kysely";
import * as initial from "./0001-initial";
import * as accounts from "./0002-accounts";
import * as visits from "./0003-visits";
import * as bookings from "./0004-bookings";
import * as quoteEmailsInOutbox from "./0005-quote-emails-in-outbox";
import * as adminListsAtScale from "./0006-admin-lists-at-scale";
import * as outboxClaims from "./0007-outbox-claims";
import * as customerPlans from "./0008-customer-plans";
import * as customersWithoutPlan from "./0010-customers-without-plan";
import * as quotesToCustomers from "./0011-quotes-to-customers";
import * as yardLocationsAndRoutes from "./0012-yard-locations-and-routes";
import * as onMyWayAndTexts from "./0013-on-my-way-and-texts";
import * as billing from "./0014-billing";
import * as planVisitIndex from "./0015-plan-visit-index";
import * as stripe from "./0016-stripe";
import * as paymentRecovery from "./0017-payment-recovery";
import * as onMyWayInVisitHistory from "./0018-on-my-way-in-visit-history";
import * as invoiceTallies from "./0019-invoice-tallies";
import * as billingEmails from "./0020-billing-emails";
import * as customerLedger from "./0021-customer-ledger";
import * as widerInvoiceNumbers from "./0022-wider-invoice-numbers";
import * as messagesWithADeadline from "./0023-messages-with-a-deadline";
import * as onMyWayBelongsToItsDay from "./0024-on-my-way-belongs-to-its-day";
import * as checkoutSessions from "./0026-checkout-sessions";
import * as creditNoteLines from "./0028-credit-note-lines";
import * as pricesOnPlans from "./0029-prices-on-plans";
import * as disputesLost from "./0030-disputes-lost";
import * as plansByCataloguePlan from "./0031-plans-by-catalogue-plan";
import * as creditsThatStay from "./0032-credits-that-stay";
import * as disputeFeesAndRepeats from "./0033-dispute-fees-and-repeats";
import * as staffRoles from "./0034-staff-roles";
import * as openInvoicesByCustomer from "./0036-open-invoices-by-customer";
import * as talliesByShard from "./0037-tallies-by-shard";
import * as routesPerTechnician from "./0039-routes-per-technician";
import * as offlineChanges from "./0041-offline-changes";
import * as assignmentsAndGateCodeViews from "./0042-assignments-and-gate-code-views";
import * as signUps from "./0044-sign-ups";
import * as cancellationReasons from "./0046-cancellation-reasons";
import * as reportMonths from "./0047-report-months";
import * as tips from "./0048-tips";
import * as reviewRequests from "./0049-review-requests";

/**
 * Every migration, in order. A static map (not a folder scan) so that the same list works in
 * the bundled server build, in tsx scripts and in tests. Add new files here with the next number.
 */
export const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-accounts": accounts,
  "0003-visits": visits,
  "0004-bookings": bookings,
  "0005-quote-emails-in-outbox": quoteEmailsInOutbox,
  "0006-admin-lists-at-scale": adminListsAtScale,
  "0007-outbox-claims": outboxClaims,
  "0008-customer-plans": customerPlans,
  "0010-customers-without-plan": customersWithoutPlan,
  "0011-quotes-to-customers": quotesToCustomers,
  "0012-yard-locations-and-routes": yardLocationsAndRoutes,
  "0013-on-my-way-and-texts": onMyWayAndTexts,
  "0014-billing": billing,
  "0015-plan-visit-index": planVisitIndex,
  "0016-stripe": stripe,
  "0017-payment-recovery": paymentRecovery,
  "0018-on-my-way-in-visit-history": onMyWayInVisitHistory,
  "0019-invoice-tallies": invoiceTallies,
  "0020-billing-emails": billingEmails,
  "0021-customer-ledger": customerLedger,
  "0022-wider-invoice-numbers": widerInvoiceNumbers,
  "0023-messages-with-a-deadline": messagesWithADeadline,
  "0024-on-my-way-belongs-to-its-day": onMyWayBelongsToItsDay,
  "0026-checkout-sessions": checkoutSessions,
  "0028-credit-note-lines": creditNoteLines,
  "0029-prices-on-plans": pricesOnPlans,
  "0030-disputes-lost": disputesLost,
  "0031-plans-by-catalogue-plan": plansByCataloguePlan,
  "0032-credits-that-stay": creditsThatStay,
  "0033-dispute-fees-and-repeats": disputeFeesAndRepeats,
  "0034-staff-roles": staffRoles,
  "0036-open-invoices-by-customer": openInvoicesByCustomer,
  "0037-tallies-by-shard": talliesByShard,
  "0039-routes-per-technician": routesPerTechnician,
  "0041-offline-changes": offlineChanges,
  "0042-assignments-and-gate-code-views": assignmentsAndGateCodeViews,
  "0044-sign-ups": signUps,
  "0046-cancellation-reasons": cancellationReasons,
  "0047-report-months": reportMonths,
  "0048-tips": tips,
  "0049-review-requests": reviewRequests,
};
