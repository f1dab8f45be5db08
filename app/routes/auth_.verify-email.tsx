import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { submitClass } from "~/features/accounts/auth-fields";
import { AccountPage } from "~/features/accounts/account-form";
import { VERIFY_LINK_EXPIRED_MESSAGE } from "~/features/accounts/account-constants";
import { ExpiredLinkPage } from "~/features/accounts/expired-link-page";
import { getOptionalUser, homeFor } from "~/features/accounts/auth.server";
import { isVerifyTokenLive, verifyEmailWithToken } from "~/features/accounts/email-verification.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { TOKEN_PAGE_HEADERS } from "~/utils/token-page";
import { STATIC_PAGE } from "~/utils/static-page";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";

// No React in the browser (decision 066): one button that posts as a document.
export const handle = STATIC_PAGE;
export const headers = () => TOKEN_PAGE_HEADERS;

/**
 * The link in the verification e-mail opens this page and changes nothing (a mail scanner or a
 * link preview fetches it with GET or HEAD): the person presses "Verify my e-mail", a POST.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = await isVerifyTokenLive(token);
  return json({ token: live ? token : null }, { status: live ? 200 : 410, headers: TOKEN_PAGE_HEADERS });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const token = String(form.get("token") ?? "");
  const user = await getOptionalUser(request, context);
  const next = user ? homeFor(user) : "/auth";
  const userId = await verifyEmailWithToken(token);
  if (!userId) {
    return redirectWithError(next, { message: "Link expired", description: VERIFY_LINK_EXPIRED_MESSAGE });
  }
  log.info("auth.email_verified", { userId });
  return redirectWithSuccess(next, { message: "Success", description: "Your e-mail address is verified." });
}

export default function VerifyEmailPage() {
  const { token } = useLoaderData<typeof loader>();
  if (!token) {
    return (
      <ExpiredLinkPage
        title="Verify your e-mail"
        message={VERIFY_LINK_EXPIRED_MESSAGE}
        to="/customer-dashboard"
        linkText="Go to your dashboard"
      />
    );
  }
  return (
    <AccountPage title="Verify your e-mail">
      <p className="text-slate-800 dark:text-slate-200">Press the button to confirm that this address is yours.</p>
      <form method="post" className="mt-4 grid gap-4">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={submitClass}>
          Verify my e-mail
        </button>
      </form>
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Verify your e-mail" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
