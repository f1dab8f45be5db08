import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { signInAfterPasswordSet } from "~/features/accounts/sign-in.server";
import { TokenPasswordPage } from "~/features/accounts/token-password-page";
import {
  loadTokenPasswordPage,
  submitTokenPassword,
  type TokenPasswordData,
} from "~/features/accounts/token-password.server";
import { getSessionUserById } from "~/models/user.server";
import { log } from "~/utils/logger.server";
import { STATIC_PAGE } from "~/utils/static-page";
import { TOKEN_PAGE_HEADERS } from "~/utils/token-page";

// The "Set your password" link of an account made from a quote request (decision 096): the
// reset page's twin (token-password.server.ts, decision 099), but it signs the customer in.
export const handle = STATIC_PAGE;
export const headers = () => TOKEN_PAGE_HEADERS;

const TITLE = "Set your password";

export function loader({ request }: LoaderFunctionArgs) {
  return loadTokenPasswordPage(request, "set-password");
}

export function action({ request }: ActionFunctionArgs) {
  return submitTokenPassword(request, "set-password", async (userId) => {
    const user = await getSessionUserById(userId);
    if (!user) return null;
    log.info("auth.password_set", { userId: user.id });
    return signInAfterPasswordSet(request, user);
  });
}

export default function SetPasswordPage() {
  const { token, script } = useLoaderData<typeof loader>();
  const data = useActionData<TokenPasswordData>();
  return (
    <TokenPasswordPage
      title={TITLE}
      formId="set-password"
      passwordLabel="Password"
      submitLabel="Set password and sign in"
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
