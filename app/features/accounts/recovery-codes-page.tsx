import { Link } from "@remix-run/react";
import { linkClass } from "~/components/ui-classes";
import { AccountPage } from "./account-form";

/** What /account/security shows once, right after two-step is turned on: the recovery codes. */
export function RecoveryCodesPage({ codes, home }: { codes: string[]; home: string }) {
  return (
    <AccountPage title="Two-step verification">
      <h2 className="text-xl font-bold text-slate-900 dark:text-white">Two-step verification is on</h2>
      <p className="mt-2 text-slate-800 dark:text-slate-200">
        Save these {codes.length} recovery codes somewhere safe. Each works once, in place of a code from your app, if
        you lose your phone. They are shown only now.
      </p>
      <ul aria-label="Recovery codes" className="mt-4 grid grid-cols-2 gap-2 font-mono text-lg">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <p className="mt-6">
        <Link to={home} className={linkClass}>
          Continue
        </Link>
      </p>
    </AccountPage>
  );
}
