import { Link } from "@remix-run/react";
import { linkClass } from "~/components/ui-classes";
import { visitPath } from "~/features/visits/visit-paths";

export type GateCodeViewItem = {
  id: string;
  at: string;
  when: string;
  who: string;
  visit: { id: string; dateLabel: string } | null;
};

/**
 * The owner's log of who pressed "Show gate code" for this customer (decision 128), newest
 * first. Office and owner read the code on this page without a press, so only presses show.
 */
export function GateCodeViewsSection({ views }: { views: GateCodeViewItem[] }) {
  return (
    <section aria-labelledby="gate-code-views-heading" className="mt-8">
      <h3 id="gate-code-views-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Gate code views
      </h3>
      {views.length === 0 ? (
        <p className="mt-2">Nobody has asked to see the gate code.</p>
      ) : (
        <table className="mt-3 w-full text-left">
          <caption className="sr-only">Who was shown the gate code, newest first</caption>
          <thead>
            <tr>
              <th scope="col" className="py-2 pr-4">
                When
              </th>
              <th scope="col" className="py-2 pr-4">
                Who
              </th>
              <th scope="col" className="py-2">
                Visit
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-700">
            {views.map((view) => (
              <tr key={view.id}>
                <td className="py-2 pr-4">
                  <time dateTime={view.at}>{view.when}</time>
                </td>
                <td className="py-2 pr-4">{view.who}</td>
                <td className="py-2">
                  {view.visit ? (
                    <Link to={visitPath(view.visit.id)} className={linkClass}>
                      {view.visit.dateLabel}
                    </Link>
                  ) : (
                    "Deleted visit"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
