import { useRef, type SyntheticEvent } from "react";
import type { Faq } from "~/content/types";

/**
 * One answer open at a time, and the open one can be closed again. `<details name>` does both
 * natively, with JavaScript off too; the toggle handler does the same for older browsers.
 */
export function FaqAccordion({ faqs, name = "faq" }: { faqs: Faq[]; name?: string }) {
  const listRef = useRef<HTMLDivElement>(null);

  function closeOthers(event: SyntheticEvent<HTMLDetailsElement>) {
    const opened = event.currentTarget;
    if (!opened.open) return;
    for (const item of listRef.current?.querySelectorAll("details") ?? []) {
      if (item !== opened) item.open = false;
    }
  }

  return (
    <div
      ref={listRef}
      className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900 hc:border-black"
    >
      {faqs.map((faq) => (
        <details key={faq._id} name={name} onToggle={closeOthers} className="group">
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left text-lg font-semibold text-slate-900 hover:bg-slate-50 dark:text-white dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
            <span>{faq.question}</span>
            <svg
              viewBox="0 0 24 24"
              className="h-5 w-5 flex-none transition-transform group-open:rotate-180 motion-off:transition-none"
              aria-hidden="true"
            >
              <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </summary>
          <div className="px-5 pb-5 text-lg leading-relaxed ink-muted">
            <p>{faq.answer}</p>
          </div>
        </details>
      ))}
    </div>
  );
}
