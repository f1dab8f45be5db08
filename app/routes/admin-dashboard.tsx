import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/dashboard-header";
import { OfflineQueueStatus } from "~/features/offline/offline-status";
import { STAFF_APP_MANIFEST_URL } from "~/features/offline/staff-app-paths";
import { roleAllows, type Capability } from "~/features/staff/capabilities";
import { requireStaff } from "~/features/staff/staff-access.server";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { privatePageMeta } from "~/utils/seo";

// The technician's phone app (decision 127): installable from any staff page, opens on Today.
export const links: LinksFunction = () => [{ rel: "manifest", href: STAFF_APP_MANIFEST_URL }];

// The layout of every admin page: child routes (services, quote requests) render in <Outlet/>.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const staff = await requireStaff(request, context, "staff-area");
  // The tabs of the role's capabilities (decision 123): cosmetic, every page checks on its own.
  const sections = SECTIONS.filter(
    (section) =>
      roleAllows(staff.staffRole, section.capability) &&
      !(section.notWith && roleAllows(staff.staffRole, section.notWith)),
  ).map(({ to, label, end }) => ({ to, label, end }));
  // The phone app's queue and service worker (decision 127) belong to this person only.
  const offline = { userId: staff.id, script: browserScriptUrl("staff-app") };
  return json({ sections, offline }, { headers: { "Cache-Control": "private, no-store" } });
}

// One entry per admin section, in tab order; a new section is one more line.
// `notWith`: a tab that only a role without that capability needs (Today is in Visits otherwise).
const SECTIONS: readonly { to: string; label: string; end: boolean; capability: Capability; notWith?: Capability }[] = [
  { to: "/admin-dashboard", label: "Services & Uploads", end: true, capability: "visits" },
  { to: "/admin-dashboard/visits", label: "Visits", end: false, capability: "visits" },
  { to: "/admin-dashboard/visits/today", label: "Today", end: false, capability: "field", notWith: "visits" },
  { to: "/admin-dashboard/visits/mine", label: "My visits", end: false, capability: "field", notWith: "visits" },
  { to: "/admin-dashboard/bookings", label: "Bookings", end: false, capability: "bookings" },
  { to: "/admin-dashboard/customers", label: "Customers", end: false, capability: "customers" },
  { to: "/admin-dashboard/quotes", label: "Quote Requests", end: false, capability: "quotes" },
  { to: "/admin-dashboard/waitlist", label: "Waitlist", end: false, capability: "customers" },
  { to: "/admin-dashboard/billing", label: "Billing", end: false, capability: "billing" },
  { to: "/admin-dashboard/reports", label: "Reports", end: false, capability: "operations-reports" },
  { to: "/admin-dashboard/staff", label: "Staff", end: false, capability: "staff" },
];

export default function AdminDashboard() {
  const { sections, offline } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <DashboardHeader
        title="Admin Dashboard"
        subtitle="Manage services and customers"
        loadingText="Loading admin dashboard..."
      />
      <nav aria-label="Admin sections" className="mt-6 border-b border-slate-300 dark:border-slate-600">
        <ul className="-mb-px flex flex-wrap gap-2">
          {sections.map((section) => (
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
      <OfflineQueueStatus userId={offline.userId} script={offline.script} />
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
