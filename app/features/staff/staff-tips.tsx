import type { StaffTipsView } from "./staff-tips.server";

/**
 * "Tips" on the owner's Staff page (docs/decisions/131): each technician's tips per pay period,
 * newest period first. All of a tip is paid to its technician (Nevada law).
 */
export function StaffTips({ tips }: { tips: StaffTipsView }) {
  if (!tips) return null;
  return (
    <section aria-labelledby="staff-tips-heading" className="mt-10">
      <h3 id="staff-tips-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Tips
      </h3>
      <p className="mt-2 max-w-prose">
        Tips customers left for each technician, by two-week pay period. All of every tip goes to the technician: pay it
        with their wages for the period.
      </p>
      {tips.periods.length === 0 ? (
        <p className="mt-3">No tips in the last twelve weeks.</p>
      ) : (
        tips.periods.map((period) => (
          <table key={period.label} className="mt-4 w-full max-w-3xl text-left">
            <caption className="text-left font-semibold">{period.label}</caption>
            <thead>
              <tr>
                <th scope="col">Technician</th>
                <th scope="col">Tips</th>
                <th scope="col">Total</th>
                <th scope="col">By card</th>
                <th scope="col">On invoices</th>
              </tr>
            </thead>
            <tbody>
              {period.rows.map((row) => (
                <tr key={row.technician}>
                  <th scope="row" className="font-normal">
                    {row.technician}
                  </th>
                  <td>{row.tips}</td>
                  <td>{row.total}</td>
                  <td>{row.card}</td>
                  <td>{row.invoice}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))
      )}
    </section>
  );
}
