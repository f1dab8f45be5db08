import { Form, useLocation, useNavigation } from "@remix-run/react";

/** The heading block of both dashboards: title, subtitle, Logout, and the pending-state text. */
export function DashboardHeader({
  title,
  subtitle,
  loadingText,
}: {
  title: string;
  subtitle: React.ReactNode;
  loadingText: string;
}) {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  // Only while this dashboard itself reloads (a tab, a service, a page of results): leaving for
  // another page is not "loading your dashboard".
  const reloading = navigation.state === "loading" && navigation.location.pathname === pathname;
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">{title}</h1>
        <p className="mt-1 text-lg text-slate-700 dark:text-slate-200">{subtitle}</p>
        {/* Always in the DOM so screen readers hear it when a navigation starts. */}
        <p role="status" className="mt-2 min-h-6 text-base text-slate-700 dark:text-slate-200">
          {reloading ? loadingText : ""}
        </p>
      </div>
      {/* Signs out on the server and goes to the home page (POST, so it works without JavaScript). */}
      <Form method="post" action="/logout">
        <button
          type="submit"
          className="inline-flex min-h-11 items-center rounded-full border-2 border-slate-400 px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100 dark:border-slate-500 dark:text-slate-100 dark:hover:bg-slate-800"
        >
          Logout
        </button>
      </Form>
    </div>
  );
}
