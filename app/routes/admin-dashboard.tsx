import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NavLink, Outlet } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/dashboard-header";
import { requireAdmin } from "~/features/accounts/auth.server";
import { privatePageMeta } from "~/utils/seo";

// The layout of every admin page: child routes (services, quote requests) render in <Outlet/>.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return json(null, { headers: { "Cache-Control": "private, no-store" } });
}

// One entry per admin section, in tab order; a new section is one more line.
const SECTIONS: readonly { to: string; label: string; end: boolean }[] = [
  { to: "/admin-dashboard", label: "Services & Uploads", end: true },
  { to: "/admin-dashboard/visits", label: "Visits", end: false },
  { to: "/admin-dashboard/bookings", label: "Bookings", end: false },
  { to: "/admin-dashboard/customers", label: "Customers", end: false },
  { to: "/admin-dashboard/quotes", label: "Quote Requests", end: false },
  { to: "/admin-dashboard/billing", label: "Billing", end: false },
];

export default function AdminDashboard() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader
        title="Admin Dashboard"
        subtitle="Manage services and customers"
        loadingText="Loading admin dashboard..."
      />
      <nav aria-label="Admin sections" className="mt-6 border-b border-slate-300 dark:border-slate-600">
        <ul className="-mb-px flex flex-wrap gap-2">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                prefetch="intent"
                className={({ isActive }) =>
                  `inline-flex min-h-11 items-center border-b-4 px-4 py-2 text-base font-semibold ${
                    isActive
                      ? "border-brand-700 text-brand-800 dark:border-brand-300 dark:text-brand-100"
                      : "border-transparent text-slate-700 hover:border-slate-400 hover:text-slate-900 dark:text-slate-200 dark:hover:text-white"
                  }`
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ matches }) =>
  privatePageMeta(matches, "Admin Dashboard", "Manage services and customers.");

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
