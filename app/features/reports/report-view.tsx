import { formatCents } from "~/features/billing/money";
import { inputClass, labelClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { REPORT_TABLES, type Cell, type ReportTable } from "./report-definitions";

/**
 * The Reports tab's pieces (issue 38, docs/decisions/130), rendered on the server only (the
 * pages are documents without React in the browser): the range form (a GET), a table with its
 * definitions in a <details> and its CSV link, and a bar chart drawn as SVG with a title, beside
 * the table of the same numbers.
 */

export function cellText(cell: Cell): string {
  switch (cell.kind) {
    case "text":
      return cell.value;
    case "count":
      return cell.value.toLocaleString("en-US");
    case "cents":
      return formatCents(cell.value);
    case "percent":
      return `${(cell.value / 100).toFixed(1)}%`;
  }
}

export type RangeValue = { from: string; to: string };
const monthInput = (month: string) => month.slice(0, 7);

export function RangeForm({ action, range, error }: { action: string; range: RangeValue; error: string | null }) {
  return (
    <form method="get" action={action} className="mt-4 flex flex-wrap items-end gap-4" aria-describedby="range-hint">
      <div>
        <label htmlFor="report-from" className={labelClass}>
          From month
        </label>
        <input
          id="report-from"
          name="from"
          type="month"
          defaultValue={monthInput(range.from)}
          placeholder="YYYY-MM"
          pattern="\d{4}-\d{2}"
          className={inputClass}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "range-error" : undefined}
        />
      </div>
      <div>
        <label htmlFor="report-to" className={labelClass}>
          To month
        </label>
        <input
          id="report-to"
          name="to"
          type="month"
          defaultValue={monthInput(range.to)}
          placeholder="YYYY-MM"
          pattern="\d{4}-\d{2}"
          className={inputClass}
        />
      </div>
      <button type="submit" className={secondaryButtonClass}>
        Show
      </button>
      <p id="range-hint" className="w-full text-sm text-slate-700 dark:text-slate-300">
        Both months included, at most five years.
      </p>
      {error ? (
        <p id="range-error" role="alert" className="w-full font-medium text-red-800 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** The query string that keeps the range on a link (the CSV, the other report page). */
export const rangeQuery = (range: RangeValue) => `from=${monthInput(range.from)}&to=${monthInput(range.to)}`;

export function ReportSection({
  table,
  range,
  note,
  chart,
}: {
  table: ReportTable;
  range: RangeValue;
  note?: string;
  chart?: { column: number; label: string };
}) {
  const headingId = `report-${table.id}`;
  return (
    <section aria-labelledby={headingId} className="mt-8" data-testid={`report-${table.id}`}>
      <h3 id={headingId} className="text-xl font-semibold text-slate-900 dark:text-white">
        {table.title}
      </h3>
      {note ? <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{note}</p> : null}
      <details className="mt-2">
        <summary className="cursor-pointer font-medium">What these figures mean</summary>
        <dl className="mt-2 space-y-2">
          {REPORT_TABLES[table.id].definitions.map(([term, definition]) => (
            <div key={term}>
              <dt className="font-semibold">{term}</dt>
              <dd className="text-slate-700 dark:text-slate-300">{definition}</dd>
            </div>
          ))}
        </dl>
      </details>
      <div className="mt-3 flex flex-wrap items-start gap-6">
        {chart ? <BarChart table={table} column={chart.column} label={chart.label} /> : null}
        <div className="max-w-full overflow-x-auto">
          <table className="text-sm">
            <caption className="sr-only">{table.title}</caption>
            <thead>
              <tr>
                {table.columns.map((column) => (
                  <th key={column} scope="col" className="px-2 py-1 text-left font-semibold">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index} className="border-t border-slate-300 dark:border-slate-600">
                  {row.map((cell, column) =>
                    column === 0 ? (
                      <th key={column} scope="row" className="px-2 py-1 text-left font-medium">
                        {cellText(cell)}
                      </th>
                    ) : (
                      <td key={column} className="px-2 py-1 text-right tabular-nums">
                        {cellText(cell)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <p className="mt-2">
        <a
          href={`/admin-dashboard/reports/csv/${table.id}?${rangeQuery(range)}`}
          className={tapLinkClass}
          download
          data-testid={`csv-${table.id}`}
        >
          Download {table.title} as CSV
        </a>
      </p>
    </section>
  );
}

const WIDTH = 480;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 8 };

/**
 * One column of the table as bars, one a row: drawn on the server, no script. Its <title> says
 * what it shows and the table beside it carries every number, so the image adds nothing a
 * screen reader misses. Negative values are drawn as zero-height bars (the table shows them).
 */
export function BarChart({ table, column, label }: { table: ReportTable; column: number; label: string }) {
  const values = table.rows.map((row) => {
    const cell = row[column];
    return cell && cell.kind !== "text" ? Math.max(0, cell.value) : 0;
  });
  const names = table.rows.map((row) => cellText(row[0]));
  const max = Math.max(1, ...values);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const step = values.length > 0 ? plotWidth / values.length : plotWidth;
  const titleId = `chart-${table.id}-title`;
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      className="max-w-full text-brand-700 dark:text-brand-300"
      data-testid={`chart-${table.id}`}
    >
      <title id={titleId}>
        {label} by month, {names[0] ?? ""} to {names.at(-1) ?? ""}; the numbers are in the table beside it.
      </title>
      <line
        x1={PAD.left}
        x2={WIDTH - PAD.right}
        y1={HEIGHT - PAD.bottom}
        y2={HEIGHT - PAD.bottom}
        stroke="currentColor"
        strokeOpacity="0.5"
      />
      {values.map((value, index) => {
        const height = Math.round((value / max) * plotHeight);
        const x = PAD.left + index * step + step * 0.15;
        return (
          <rect
            key={index}
            x={x.toFixed(1)}
            y={HEIGHT - PAD.bottom - height}
            width={(step * 0.7).toFixed(1)}
            height={height}
            fill="currentColor"
          />
        );
      })}
      {names.map((name, index) =>
        index === 0 || index === names.length - 1 ? (
          <text
            key={name}
            x={PAD.left + index * step + step / 2}
            y={HEIGHT - 8}
            textAnchor={index === 0 ? "start" : "end"}
            fontSize="12"
            fill="currentColor"
          >
            {name}
          </text>
        ) : null,
      )}
    </svg>
  );
}
