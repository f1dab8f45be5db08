import { linkClass } from "~/components/ui-classes";
import { AccountPage } from "./account-form";

/**
 * What a token page (verify e-mail, reset password) shows for a link that is spent, too old or
 * unknown: the message, and a plain link (the pages are static, 066) to where a new one is had.
 */
export function ExpiredLinkPage({
  title,
  message,
  to,
  linkText,
}: {
  title: string;
  message: string;
  to: string;
  linkText: string;
}) {
  return (
    <AccountPage title={title}>
      <p role="alert" className="text-slate-800 dark:text-slate-200">
        {message}
      </p>
      <p className="mt-4">
        <a href={to} className={linkClass}>
          {linkText}
        </a>
      </p>
    </AccountPage>
  );
}
