import type { Capability } from "~/features/staff/capabilities";

/**
 * The Reports tab's tables and what each figure means (issue 38, docs/decisions/130): one place
 * for the pages' definitions, the CSV route's list and who may read each table. Money tables are
 * the owner's (`reports`); customers and visits are the office's too (`operations-reports`).
 */
export const REPORT_TABLE_IDS = [
  "revenue",
  "money",
  "aging",
  "failed-payments",
  "customers",
  "cancellations",
  "retention",
  "visits",
] as const;
export type ReportTableId = (typeof REPORT_TABLE_IDS)[number];

/** A cell's kind says how it is shown: cents as dollars, a share (in hundredths of a percent) as a percentage. */
export type Cell = { kind: "text"; value: string } | { kind: "count" | "cents" | "percent"; value: number };
export type ReportTable = { id: ReportTableId; title: string; columns: string[]; rows: Cell[][] };

export const isReportTableId = (value: string): value is ReportTableId =>
  (REPORT_TABLE_IDS as readonly string[]).includes(value);

export const REPORT_TABLES: Record<
  ReportTableId,
  { title: string; capability: Capability; definitions: readonly [string, string][] }
> = {
  revenue: {
    title: "Recurring revenue",
    capability: "reports",
    definitions: [
      [
        "Recurring revenue",
        "The sum of the monthly prices of the plans open on the month's last day (started, not cancelled; a paused plan counts), each at the price billing uses for that month: the price locked on the plan, the price before a later plan change, or a new price from its day. A weekly plan counts its monthly price, which bills 52 ÷ 12 visits a month, never 4 visits.",
      ],
      ["Paying customers", "Customers whose open plans come to more than $0 that month."],
      ["New", "Recurring revenue of customers who had none the month before and never had any before."],
      [
        "Expansion",
        "The increase of customers whose recurring revenue went up (a bigger plan, more dogs, a new price).",
      ],
      ["Contraction", "The decrease of customers whose recurring revenue went down but not to $0."],
      ["Churned", "The previous month's recurring revenue of customers who have none this month."],
      ["Reactivated", "Recurring revenue of customers who had none the month before but had some earlier."],
      ["Net change", "New + expansion + reactivated − contraction − churned: this month's figure less the last."],
    ],
  },
  money: {
    title: "Money",
    capability: "reports",
    definitions: [
      ["Invoiced", "Invoices issued in the month, less invoices voided in the month (the ledger's entries)."],
      ["Credited", "Credit notes issued in the month, including those paid out as refunds."],
      [
        "Collected",
        "Payments received in the month (card, cash, check), less refunds paid out, payments reversed and disputes lost.",
      ],
      ["Written off", "What was left owing on invoices marked uncollectible in the month."],
      [
        "Still owed",
        "All customers' balance at the month's end: every ledger entry up to then. Negative is credit on file. Each month's figure is the last one plus invoiced, less credited, collected and written off: the Billing tab's month reconciliation.",
      ],
    ],
  },
  aging: {
    title: "Aging of what is owed",
    capability: "reports",
    definitions: [
      [
        "Days past due",
        "What open invoices still owe today (total less what paid them), by the days since their due day. An invoice not yet due counts in 0–30. It does not follow the date range: it is today's.",
      ],
      ["Share", "The bucket's part of everything owed on open invoices."],
    ],
  },
  "failed-payments": {
    title: "Failed payments",
    capability: "reports",
    definitions: [
      ["Failed", "Invoices whose first automatic card charge failed in the month, and their totals."],
      ["Recovered", "Of those, the invoices paid since (a retry, a new card, Pay now, or by hand)."],
    ],
  },
  customers: {
    title: "Customers",
    capability: "operations-reports",
    definitions: [
      ["Active", "Customers with at least one plan open on the month's last day (a paused plan counts)."],
      ["New", "Customers whose first plan started in the month."],
      ["Lost", "Customers active at the end of the month before and not at the end of this one."],
    ],
  },
  cancellations: {
    title: "Cancellations by reason",
    capability: "operations-reports",
    definitions: [
      [
        "Reason",
        "Plans cancelled in the month, by the reason the customer or the admin chose on the cancel form. Not given: the question was left unanswered (or the plan was cancelled before it was asked).",
      ],
    ],
  },
  retention: {
    title: "Retention by sign-up month",
    capability: "operations-reports",
    definitions: [
      [
        "Month k",
        "Of the customers whose first plan started in the sign-up month, the share with a plan open at the end of the k-th month after it (Month 0: the sign-up month itself). Never active customers ÷ all customers ever.",
      ],
    ],
  },
  visits: {
    title: "Visits",
    capability: "operations-reports",
    definitions: [
      ["Completed", "Visits of the month (their day) marked completed."],
      ["Skipped", "Visits of the month skipped, by why: the customer, a pause, a payment overdue, or the admin."],
      ["Missed", "Visits of the month marked missed, by the reason the technician gave (none given: Other)."],
      ["Return visits completed", "Completed visits that went back for a missed one (the missed-spot promise)."],
    ],
  },
};

export const MONEY_REPORT_TABLES: readonly ReportTableId[] = ["revenue", "money", "aging", "failed-payments"];
export const OPERATIONS_REPORT_TABLES: readonly ReportTableId[] = ["customers", "cancellations", "retention", "visits"];
