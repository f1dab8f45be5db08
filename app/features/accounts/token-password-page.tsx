import { AccountPage } from "./account-form";
import { MIN_PASSWORD_LENGTH, RESET_LINK_EXPIRED_MESSAGE } from "./account-constants";
import { submitClass } from "./auth-fields";
import { ExpiredLinkPage } from "./expired-link-page";
import { BrowserScript } from "~/components/browser-script";
import { Field } from "~/components/forms";

/**
 * The page of a link that sets a password (reset, set-password: token-password.server.ts): the
 * form, or the expired page for a dead link. No React in the browser (decisions 066, 068): the
 * form posts as a document and auth-forms.browser.ts (found by the form's id) checks the password
 * as it is typed.
 */
export function TokenPasswordPage({
  title,
  formId,
  passwordLabel,
  submitLabel,
  token,
  script,
  data,
}: {
  title: string;
  formId: string;
  passwordLabel: string;
  submitLabel: string;
  /** Null for a dead link. */
  token: string | null;
  script: string | null;
  /** The action's refusal, if any. */
  data?: { expired: boolean; result?: { error?: Record<string, string[] | null> | null } };
}) {
  if (!token || data?.expired) {
    return (
      <ExpiredLinkPage
        title={title}
        message={RESET_LINK_EXPIRED_MESSAGE}
        to="/auth/forgot-password"
        linkText="Request a new link"
      />
    );
  }
  return (
    <AccountPage title={title}>
      <form id={formId} method="post" className="grid gap-4">
        <input type="hidden" name="token" value={token} />
        <Field
          label={passwordLabel}
          inputProps={{
            id: "password",
            name: "password",
            type: "password",
            required: true,
            autoComplete: "new-password",
            minLength: MIN_PASSWORD_LENGTH,
            maxLength: 1024,
          }}
          description={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          errors={data?.result?.error?.password ?? undefined}
        />
        <button type="submit" className={submitClass}>
          {submitLabel}
        </button>
      </form>
      <BrowserScript src={script} />
    </AccountPage>
  );
}
