import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ActionToast } from "~/components/action-toast";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Field, SelectField } from "~/components/forms";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";
import { requireStaff } from "~/features/staff/staff-access.server";
import { handleStaffAction, loadStaffPage, type StaffActionData } from "~/features/staff/staff-page.server";
import { loadProductivity } from "~/features/staff/productivity.server";
import { StaffProductivitySection } from "~/features/staff/staff-productivity-section";
import { StaffTips } from "~/features/staff/staff-tips";
import { loadStaffTips } from "~/features/staff/staff-tips.server";
import { getDb } from "~/utils/db.server";

// Staff (decision 123): the owner invites staff by e-mail, changes roles and deactivates accounts.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireStaff(request, context, "staff");
  const [page, productivity, tips] = await Promise.all([
    loadStaffPage(owner),
    loadProductivity(new URL(request.url)),
    loadStaffTips(await getDb(), new Date()),
  ]);
  return json({ ...page, productivity, tips }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireStaff(request, context, "staff");
  return handleStaffAction(request, owner);
}

export const headers = () => ({ "Cache-Control": "private, no-store" });

const panel = "rounded-xl border border-slate-300 p-5 dark:border-slate-600";

function errorsOf(data: StaffActionData | undefined, intent: string, field: string, userId?: string) {
  if (!data || data.intent !== intent || (userId && data.userId !== userId)) return undefined;
  return data.result?.error?.[field] ?? undefined;
}

export default function Staff() {
  const { members, roles, viewerId, productivity, tips } = useLoaderData<typeof loader>();
  const actionData = useActionData<StaffActionData>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  return (
    <section aria-labelledby="staff-heading">
      <ActionToast toast={actionData?.toast} />
      <h2 id="staff-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Staff
      </h2>
      <p className="mt-2 max-w-prose">
        Owners can do everything. Office staff work with customers, plans, visits, bookings, quotes and billing.
        Technicians see only the visits assigned to them, today and the next 7 days. Everyone signs in with two-step
        verification.
      </p>

      <Form method="post" className={`${panel} mt-6 max-w-xl`} aria-labelledby="invite-heading">
        <h3 id="invite-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
          Invite staff
        </h3>
        <input type="hidden" name="intent" value="invite" />
        <Field
          label="Name"
          className="mt-3"
          inputProps={{ id: "invite-name", name: "fullName", required: true, maxLength: 200, autoComplete: "off" }}
          errors={errorsOf(actionData, "invite", "fullName")}
        />
        <Field
          label="E-mail"
          className="mt-3"
          inputProps={{ id: "invite-email", name: "email", type: "email", required: true, maxLength: 320 }}
          errors={errorsOf(actionData, "invite", "email")}
        />
        <SelectField
          label="Role"
          className="mt-3"
          selectProps={{ id: "invite-role", name: "role", defaultValue: "technician" }}
          errors={errorsOf(actionData, "invite", "role")}
        >
          {roles.map((role) => (
            <option key={role.value} value={role.value}>
              {role.label}
            </option>
          ))}
        </SelectField>
        <button type="submit" disabled={busy} className={`${primaryButtonClass} mt-4`}>
          Send invitation
        </button>
      </Form>

      <h3 className="mt-8 text-xl font-semibold text-slate-900 dark:text-white">Staff accounts</h3>
      <ul className="mt-3 grid gap-4">
        {members.map((member) => (
          <li key={member.id} className={panel} aria-labelledby={`member-${member.id}`}>
            <p id={`member-${member.id}`} className="font-semibold">
              {member.name} <span className="font-normal break-all">({member.email})</span>
            </p>
            <p>
              {member.roleLabel}
              {member.active ? "" : " · Deactivated"}
              {member.twoStepOn ? " · Two-step on" : " · Two-step not set up yet"}
            </p>
            <Link to={`/admin-dashboard/staff/${member.id}`} className="tap-link">
              Route settings
            </Link>
            <div className="mt-3 flex flex-wrap items-end gap-3">
              <Form method="post" className="flex flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="role" />
                <input type="hidden" name="userId" value={member.id} />
                <SelectField
                  label={`Role of ${member.name}`}
                  selectProps={{ id: `role-${member.id}`, name: "role", defaultValue: member.role }}
                  errors={errorsOf(actionData, "role", "role", member.id)}
                >
                  {roles.map((role) => (
                    <option key={role.value} value={role.value}>
                      {role.label}
                    </option>
                  ))}
                </SelectField>
                <button type="submit" disabled={busy} className={secondaryButtonClass}>
                  Change role
                </button>
              </Form>
              {member.id === viewerId ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value={member.active ? "deactivate" : "reactivate"} />
                  <input type="hidden" name="userId" value={member.id} />
                  <button
                    type="submit"
                    disabled={busy}
                    className={secondaryButtonClass}
                    aria-label={`${member.active ? "Deactivate" : "Reactivate"} ${member.name}`}
                  >
                    {member.active ? "Deactivate" : "Reactivate"}
                  </button>
                </Form>
              )}
            </div>
            {actionData?.userId === member.id ? (
              <p role="alert" className="mt-2 font-medium text-red-800 dark:text-red-200">
                {actionData.toast.description}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <StaffProductivitySection productivity={productivity} />
      <StaffTips tips={tips} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Staff | Admin Dashboard" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
