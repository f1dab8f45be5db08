import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TokenPasswordPage } from "~/features/accounts/token-password-page";
import {
  loadTokenPasswordPage,
  submitTokenPassword,
  type TokenPasswordData,
} from "~/features/accounts/token-password.server";
import { log } from "~/utils/logger.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { TOKEN_PAGE_HEADERS } from "~/utils/token-page";
import { redirectWithSuccess } from "~/utils/toast.server";

// The "Forgot password?" link (one hour). The token workflow is the set-password page's too
// (token-password.server.ts, decision 099); this page keeps its texts and where it lands.
export const handle = STATIC_PAGE;
export const headers = () => TOKEN_PAGE_HEADERS;

const TITLE = "Choose a new password";

export function loader({ request }: LoaderFunctionArgs) {
  return loadTokenPasswordPage(request, "reset-password");
}

export function action({ request }: ActionFunctionArgs) {
  return submitTokenPassword(request, "reset-password", async () => {
    log.info("auth.password_reset", {});
    return redirectWithSuccess("/auth", {
      message: "Success",
      description: "Your password has been changed. You can now log in.",
    });
  });
}

export default function ResetPasswordPage() {
  const { token, script } = useLoaderData<typeof loader>();
  const data = useActionData<TokenPasswordData>();
  return (
    <TokenPasswordPage
      title={TITLE}
      formId="reset-password"
      passwordLabel="New password"
      submitLabel="Change password"
      token={token}
      script={script}
      data={data}
    />
  );
}

export const meta: MetaFunction = () => [{ title: TITLE }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
