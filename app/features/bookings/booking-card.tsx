import { useEffect, useRef, useState } from "react";
import { CheckboxField } from "~/components/forms";

const LEGAL_LINKS = [
  { href: "/terms-of-service", label: "Terms of Service" },
  { href: "/privacy-policy", label: "Privacy Policy" },
  { href: "/disclaimer", label: "Disclaimer" },
] as const;

/**
 * Book a Service. Without JavaScript the form posts and the server checks the agreement
 * (toast) or redirects to the calendar. With it, the button stays disabled until the box is
 * checked and opens the calendar in a new tab.
 */
export function BookingCard({ calendarUrl }: { calendarUrl: string | null }) {
  const [hydrated, setHydrated] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setHydrated(true);
    // The box may have been ticked before the page became interactive.
    const box = form.current?.elements.namedItem("agree");
    setAgreed(box instanceof HTMLInputElement && box.checked);
  }, []);

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    if (!calendarUrl) return;
    event.preventDefault();
    if (!agreed) return;
    window.open(calendarUrl, "_blank", "noopener,noreferrer");
  }

  return (
    <section
      aria-labelledby="book-heading"
      className="rounded-2xl border border-slate-300 p-6 shadow-sm dark:border-slate-600"
    >
      <h2 id="book-heading" className="text-2xl font-bold text-slate-900 dark:text-white">
        Book a Service
      </h2>
      <form ref={form} method="post" onSubmit={onSubmit} className="mt-4">
        <CheckboxField
          label={
            <>
              I agree to the{" "}
              {LEGAL_LINKS.map((link, i) => (
                <span key={link.href}>
                  <a
                    href={link.href}
                    target="_blank"
                    rel="noopener"
                    className="font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900 dark:text-brand-200 dark:hover:text-brand-100"
                  >
                    {link.label}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  {i === 0 ? ", " : i === 1 ? " and " : ""}
                </span>
              ))}
              .
            </>
          }
          labelProps={{ className: "text-base text-slate-800 dark:text-slate-100" }}
          inputProps={{
            id: "agree",
            name: "agree",
            value: "yes",
            onChange: (e) => setAgreed(e.currentTarget.checked),
            className: "accent-brand-700",
          }}
        />
        <button
          type="submit"
          disabled={hydrated && (!agreed || !calendarUrl)}
          aria-describedby="book-hint"
          className="mt-5 inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand-700 px-6 py-3 text-lg font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-800 dark:bg-brand-500 dark:text-brand-950 dark:hover:bg-brand-400 dark:disabled:bg-slate-700 dark:disabled:text-slate-200 sm:w-auto"
        >
          Book Appointment
        </button>
        <p id="book-hint" className="mt-3 text-sm text-slate-700 dark:text-slate-300">
          Please check the agreement box above to proceed with booking
        </p>
        {calendarUrl ? null : (
          <p className="mt-2 text-sm font-medium text-red-800 dark:text-red-300">
            Online booking is not available right now. Please try again later.
          </p>
        )}
      </form>
    </section>
  );
}
