import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { loadLegalPage } from "~/content/legal-page.server";
import { seoMeta } from "~/utils/seo";
import { JsonLd } from "./json-ld";
import { RichText } from "./portable-text";

type LegalLoader = (args: { request: Request }) => ReturnType<typeof loadLegalPage>;

/** "2025-01-17" → "January 17, 2025", the same on server and browser. */
export function formatLongDate(isoDate: string): string {
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${isoDate}T00:00:00Z`),
  );
}

export function LegalDocument() {
  const { page, facts, jsonLd } = useLoaderData<LegalLoader>();
  return (
    <article aria-labelledby="page-heading" className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <JsonLd data={jsonLd} />
      <h1 id="page-heading" className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
        {page.title}
      </h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        Last updated <time dateTime={page.lastUpdated}>{formatLongDate(page.lastUpdated)}</time>
      </p>
      <div className="mt-6">
        <RichText value={page.body} facts={facts} />
      </div>
    </article>
  );
}

export const legalMeta: MetaFunction<LegalLoader> = ({ data }) => seoMeta(data?.seo);
