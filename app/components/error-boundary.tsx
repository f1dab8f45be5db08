import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

/** The one error view: a 404 gets "Oops! Page not found", anything else the generic error. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 503) return <Unavailable />;

  const status = isRouteErrorResponse(error) ? error.status : 500;
  // Stack traces only while developing; production shows nothing internal.
  const detail =
    process.env.NODE_ENV === "development" && error instanceof Error ? (error.stack ?? error.message) : null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center" aria-labelledby="error-heading">
      <p className="text-sm font-semibold uppercase tracking-wide text-red-700 dark:text-red-300">Error {status}</p>
      <h1 id="error-heading" className="mt-2 text-3xl font-bold text-slate-900 dark:text-white">
        Unexpected Application Error!
      </h1>
      <p className="mt-4 text-lg text-slate-700 dark:text-slate-200">
        Something went wrong on our side. Please try again in a moment.
      </p>
      {detail ? (
        <pre className="mt-6 overflow-auto rounded bg-slate-100 p-4 text-left text-sm dark:bg-slate-800">{detail}</pre>
      ) : null}
      <Link
        to="/"
        className="mt-8 inline-flex min-h-11 items-center rounded-full bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800"
      >
        Return to Home
      </Link>
    </section>
  );
}

export function NotFound() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center" aria-labelledby="not-found-heading">
      <p className="text-6xl font-bold text-brand-700 dark:text-brand-300">404</p>
      <h1 id="not-found-heading" className="mt-4 text-3xl font-bold text-slate-900 dark:text-white">
        Oops! Page not found
      </h1>
      <Link
        to="/"
        className="mt-8 inline-flex min-h-11 items-center rounded-full bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800"
      >
        Return to Home
      </Link>
    </section>
  );
}

/** The database (or another part we depend on) is away; entry.server answers 503. */
function Unavailable() {
  return (
    <section className="mx-auto max-w-2xl px-4 py-24 text-center" aria-labelledby="unavailable-heading">
      <h1 id="unavailable-heading" className="text-3xl font-bold text-slate-900 dark:text-white">
        We&apos;re having trouble right now. Please try again in a moment.
      </h1>
    </section>
  );
}
