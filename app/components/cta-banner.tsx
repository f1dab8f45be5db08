import type { CallToAction } from "~/content/types";
import { CtaLink } from "./cta-link";

/** The closing band of a page: a heading, a line, and one button. */
export function CtaBanner({ cta, to, id }: { cta: CallToAction; to: string; id: string }) {
  return (
    <section className="bg-brand-800 text-white dark:bg-brand-950 hc:bg-black">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 px-4 py-12 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id={`${id}-heading`} className="text-2xl font-bold sm:text-3xl">
            {cta.heading}
          </h2>
          {cta.text ? <p className="mt-2 max-w-2xl text-lg text-brand-50">{cta.text}</p> : null}
        </div>
        <CtaLink to={to} variant="inverse">
          {cta.buttonLabel}
        </CtaLink>
      </div>
    </section>
  );
}
