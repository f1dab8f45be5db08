import { Form } from "@remix-run/react";
import { secondaryButtonClass } from "~/components/ui-classes";
import type { ProductivityRow } from "./productivity.server";

export type ProductivityView = { day: string; dayLabel: string; problem: string | null; rows: ProductivityRow[] };

const cell = "py-2 pr-4 align-top";

/**
 * The Staff page's "Productivity" (decision 128): per staff member, one day's stops done,
 * minutes on site, miles planned and skips by reason. The day picker is a GET form (works
 * without JavaScript; the day stays in the URL).
 */
export function StaffProductivitySection({ productivity }: { productivity: ProductivityView }) {
  const { day, dayLabel, problem, rows } = productivity;
  return (
    <section aria-labelledby="productivity-heading" className="mt-10">
      <h3 id="productivity-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Productivity
      </h3>
      <Form method="get" className="mt-3 flex flex-wrap items-end gap-3" preventScrollReset>
        <div>
          <label htmlFor="productivity-day" className="block font-semibold">
            Day
          </label>
          <input
            id="productivity-day"
            type="date"
            name="day"
            defaultValue={day}
            className="mt-1 min-h-11 rounded-md border border-slate-400 px-3 dark:bg-slate-900"
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Show day
        </button>
      </Form>
      {problem ? (
        <p role="alert" className="mt-3 font-medium text-red-800 dark:text-red-200">
          {problem}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="mt-3">No technicians, and no visits assigned on {dayLabel}.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left">
            <caption className="text-left font-medium">{dayLabel}</caption>
            <thead>
              <tr>
                <th scope="col" className={cell}>
                  Staff
                </th>
                <th scope="col" className={cell}>
                  Stops done
                </th>
                <th scope="col" className={cell}>
                  Minutes on site
                </th>
                <th scope="col" className={cell}>
                  Miles planned
                </th>
                <th scope="col" className={cell}>
                  Skips by reason
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
              {rows.map((row) => (
                <tr key={row.staffId}>
                  <th scope="row" className={`${cell} font-semibold`}>
                    {row.name} <span className="font-normal">({row.roleLabel})</span>
                  </th>
                  <td className={cell}>{row.stopsDone}</td>
                  <td className={cell}>
                    {row.minutesOnSite === null
                      ? "Not timed"
                      : `${row.minutesOnSite}${row.timedStops < row.stopsDone ? ` (${row.timedStops} of ${row.stopsDone} stops timed)` : ""}`}
                  </td>
                  <td className={cell}>{row.milesPlanned === null ? "No route" : row.milesPlanned.toFixed(1)}</td>
                  <td className={cell}>
                    {row.skips.length === 0
                      ? "None"
                      : row.skips.map((skip) => `${skip.label}: ${skip.count}`).join("; ")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
