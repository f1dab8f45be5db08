import type { ReactNode } from "react";

/** The top of a page: its one H1, an intro, and optional buttons. */
export function PageHero({ heading, text, children }: { heading: string; text?: string | null; children?: ReactNode }) {
  return (
    <section
      aria-labelledby="page-heading"
      className="bg-gradient-to-b from-brand-50 to-white dark:from-brand-950 dark:to-slate-950 hc:from-white hc:to-white"
    >
      <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16 lg:py-20">
        <h1
          id="page-heading"
          className="max-w-3xl text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl lg:text-5xl dark:text-white"
        >
          {heading}
        </h1>
        {text ? <p className="mt-4 max-w-2xl text-lg text-slate-700 sm:text-xl dark:text-slate-200">{text}</p> : null}
        {children ? <div className="mt-8 flex flex-wrap gap-3">{children}</div> : null}
      </div>
    </section>
  );
}

/**
 * A page section with an H2. Not a named landmark: names like "Service area" would repeat the
 * footer's; the headings are what screen reader users navigate by here. Its frame, heading and
 * intro are styled by `.page-section` (app/tailwind.css, decision 074).
 */
export function PageSection({
  id,
  heading,
  text,
  children,
  tone = "plain",
}: {
  id: string;
  heading: string;
  text?: string | null;
  children?: ReactNode;
  tone?: "plain" | "tinted";
}) {
  return (
    <section className={tone === "tinted" ? "page-section section-tinted" : "page-section"}>
      <div>
        <h2 id={`${id}-heading`}>{heading}</h2>
        {text ? <p>{text}</p> : null}
        {children ? <div className="mt-8">{children}</div> : null}
      </div>
    </section>
  );
}
