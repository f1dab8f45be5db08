import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { submitClass } from "~/features/accounts/auth-fields";
import { AccountPage, linkClass, PlainField } from "~/features/accounts/account-form";
import { MIN_PASSWORD_LENGTH, RESET_LINK_EXPIRED_MESSAGE } from "~/features/accounts/account-constants";
import { isResetTokenLive, resetPasswordWithToken } from "~/features/accounts/password-reset.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";

// The token stays in the URL only for the page; the form posts it in the body.
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = await isResetTokenLive(token);
  return json({ token: live ? token : null }, { status: live ? 200 : 410, headers: { "Cache-Control": "no-store" } });
}

type ResetData = { expired: boolean; error?: string };

export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 1024) {
    const error =
      password.length > 1024 ? "Password is too long" : `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
    return json<ResetData>({ expired: false, error }, { status: 400 });
  }
  if (!(await resetPasswordWithToken(token, password))) {
    return json<ResetData>({ expired: true }, { status: 410 });
  }
  log.info("auth.password_reset", {});
  return redirectWithSuccess("/auth", {
    message: "Success",
    description: "Your password has been changed. You can now log in.",
  });
}

export default function ResetPasswordPage() {
  const { token } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  if (!token || data?.expired) {
    return (
      <AccountPage title="Choose a new password">
        <p role="alert" className="text-slate-800 dark:text-slate-200">
          {RESET_LINK_EXPIRED_MESSAGE}
        </p>
        <p className="mt-4">
          <Link to="/auth/forgot-password" className={linkClass}>
            Request a new link
          </Link>
        </p>
      </AccountPage>
    );
  }
  return (
    <AccountPage title="Choose a new password">
      <Form method="post" className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <PlainField
          id="password"
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={1024}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={data?.error}
        />
        <button type="submit" className={submitClass} disabled={busy}>
          Change password
        </button>
      </Form>
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Choose a new password" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
