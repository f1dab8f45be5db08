import { Form } from "@remix-run/react";

/** On the customer's dashboard until the address is verified; the button posts, so it works without JavaScript. */
export function VerifyEmailNotice() {
  return (
    <section
      aria-labelledby="verify-email-heading"
      className="mt-6 flex flex-wrap items-center justify-between gap-4 rounded-2xl border-2 border-amber-600 bg-amber-50 p-4 dark:border-amber-400 dark:bg-amber-950"
    >
      <div>
        <h2 id="verify-email-heading" className="text-lg font-bold text-slate-900 dark:text-white">
          Please verify your e-mail address
        </h2>
        <p className="text-slate-800 dark:text-slate-200">We sent you a link when you signed up.</p>
      </div>
      <Form method="post" action="/account/verify-email">
        <button
          type="submit"
          className="inline-flex min-h-11 items-center rounded-full border-2 border-slate-700 bg-white px-5 py-2 font-semibold text-slate-900 hover:bg-slate-50 dark:border-slate-300 dark:bg-slate-900 dark:text-white"
        >
          Resend verification e-mail
        </button>
      </Form>
    </section>
  );
}
