import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireStaff } from "~/features/staff/staff-access.server";
import { loadStaffRoutePage, saveStaffRouteForm, WEEKDAYS } from "~/features/staff/staff-route-settings.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { redirectWithSuccess } from "~/utils/toast.server";
import { isUuid } from "~/utils/uuid";

export const handle = STATIC_PAGE;

// A staff member's route settings (docs/decisions/126): the owner's, as the Staff page is.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, "staff");
  const page = isUuid(params.staffId ?? "") ? await loadStaffRoutePage(params.staffId!) : null;
  if (!page) throw json({ error: "No such staff member" }, { status: 404 });
  return json(page, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const owner = await requireStaff(request, context, "staff");
  const staffId = params.staffId ?? "";
  if (!isUuid(staffId) || !(await loadStaffRoutePage(staffId))) {
    return json({ errors: ["No such staff member"] }, { status: 404 });
  }
  const form = await request.formData().catch(() => null);
  if (!form) return json({ errors: ["That form could not be read"] }, { status: 400 });
  const errors = await saveStaffRouteForm(staffId, form, owner.id);
  if (errors.length) return json({ errors }, { status: 400 });
  return redirectWithSuccess(`/admin-dashboard/staff/${staffId}`, {
    message: "Success",
    description: "Route settings saved",
  });
}

const clock = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

export default function StaffRouteSettings() {
  const { member, route } = useLoaderData<typeof loader>();
  const errors = useActionData<typeof action>()?.errors;
  return (
    <section aria-labelledby="staff-route-heading" className="mx-auto max-w-xl">
      <Link to="/admin-dashboard/staff" className="tap-link">
        <span aria-hidden="true">←&nbsp;</span>Staff
      </Link>
      <h2 id="staff-route-heading" className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">
        {member.label}
      </h2>
      <p>Route settings</p>
      {errors?.length ? (
        <ul
          role="alert"
          className="mt-4 rounded-lg bg-red-50 p-3 font-medium text-red-900 dark:bg-red-950 dark:text-red-100"
        >
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      ) : null}
      <form method="post" className="mt-4 space-y-4">
        <label className="flex items-center gap-2 font-semibold">
          <input type="checkbox" name="worksRoute" defaultChecked={route?.worksRoute ?? false} className="h-5 w-5" />
          Works a route
        </label>
        {(["start", "end"] as const).map((which) => {
          const place = which === "start" ? route?.start : route?.end;
          return (
            <fieldset key={which} className="space-y-2">
              <legend className="font-semibold">{which === "start" ? "Start place" : "End place (optional)"}</legend>
              <label className="admin-label">
                Name or address
                <input name={`${which}Name`} defaultValue={place?.name ?? ""} className="admin-field mt-1 w-full" />
              </label>
              <div className="flex flex-wrap gap-2">
                <label className="admin-label">
                  Latitude
                  <input
                    name={`${which}Latitude`}
                    inputMode="decimal"
                    defaultValue={place?.latitude ?? ""}
                    className="admin-field mt-1"
                  />
                </label>
                <label className="admin-label">
                  Longitude
                  <input
                    name={`${which}Longitude`}
                    inputMode="decimal"
                    defaultValue={place?.longitude ?? ""}
                    className="admin-field mt-1"
                  />
                </label>
                <label className="admin-label">
                  or ZIP code
                  <input name={`${which}Zip`} inputMode="numeric" className="admin-field mt-1" />
                </label>
              </div>
            </fieldset>
          );
        })}
        <div className="flex flex-wrap gap-2">
          <label className="admin-label">
            Day starts
            <input
              type="time"
              name="dayStartsAt"
              defaultValue={clock(route?.dayStartsAt ?? 480)}
              className="admin-field mt-1"
            />
          </label>
          <label className="admin-label">
            Day ends
            <input
              type="time"
              name="dayEndsAt"
              defaultValue={clock(route?.dayEndsAt ?? 1020)}
              className="admin-field mt-1"
            />
          </label>
        </div>
        <fieldset>
          <legend className="font-semibold">Works on</legend>
          <div className="flex flex-wrap gap-3">
            {WEEKDAYS.map((name, day) => (
              <label key={name} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  name="weekday"
                  value={day}
                  defaultChecked={((route?.weekdays ?? 62) & (1 << day)) !== 0}
                  className="h-5 w-5"
                />
                {name}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="admin-btn admin-btn-primary">
          Save route settings
        </button>
      </form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Route settings | Staff" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
