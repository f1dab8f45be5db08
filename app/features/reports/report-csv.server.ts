import { stringify } from "csv-stringify/sync";
import { safeCell } from "~/features/billing/ledger-export.server";
import type { Cell, ReportTable } from "./report-definitions";

/**
 * A report's table as CSV (issue 38): the page's numbers exactly, amounts in dollars with two
 * decimals and shares in percent, as numbers a spreadsheet sums. Every text cell goes through
 * the ledger export's `safeCell`, so one beginning with =, +, -, @ (a formula) gets a leading
 * apostrophe and runs nothing. A report table is at most 60 months: built whole, not streamed.
 */

const decimal = (hundredths: number) => {
  const sign = hundredths < 0 ? "-" : "";
  const abs = Math.abs(hundredths);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
};

export function csvCell(cell: Cell): string {
  switch (cell.kind) {
    case "text":
      return safeCell(cell.value);
    case "count":
      return String(cell.value);
    case "cents":
    case "percent":
      return decimal(cell.value);
  }
}

export function reportCsv(table: ReportTable): string {
  return stringify([table.columns.map((column) => safeCell(column)), ...table.rows.map((row) => row.map(csvCell))], {
    record_delimiter: "\r\n",
  });
}
