import { PortableText, type PortableTextComponents } from "@portabletext/react";
import { Link } from "@remix-run/react";
import { useMemo } from "react";
import { isSiteFact, type SiteFacts } from "~/content/site-facts";
import type { PortableTextBody } from "~/content/types";
import { telHref } from "~/utils/tel";
import { linkClass } from "./ui-classes";

const components: PortableTextComponents = {
  block: {
    normal: ({ children }) => (
      <p className="mt-4 text-lg leading-relaxed text-slate-800 dark:text-slate-200">{children}</p>
    ),
    h2: ({ children }) => <h2 className="mt-10 text-2xl font-bold text-slate-900 dark:text-white">{children}</h2>,
    h3: ({ children }) => <h3 className="mt-8 text-xl font-semibold text-slate-900 dark:text-white">{children}</h3>,
  },
  list: {
    bullet: ({ children }) => (
      <ul className="mt-4 list-disc space-y-2 pl-6 text-lg text-slate-800 marker:text-brand-700 dark:text-slate-200 dark:marker:text-brand-300">
        {children}
      </ul>
    ),
    number: ({ children }) => (
      <ol className="mt-4 list-decimal space-y-2 pl-6 text-lg text-slate-800 dark:text-slate-200">{children}</ol>
    ),
  },
  marks: {
    link: ({ value, children }) => {
      const href = typeof value?.href === "string" ? value.href : "";
      const className = linkClass;
      // Site paths navigate inside the app; everything else (mailto:, tel:, other sites) is a plain link.
      if (href.startsWith("/")) {
        return (
          <Link to={href} className={className} prefetch="intent">
            {children}
          </Link>
        );
      }
      return (
        <a href={href} className={className}>
          {children}
        </a>
      );
    },
  },
};

/** A Site setting quoted in the text (`siteSettingRef`): its current value, the phone and e-mail as links. */
function SiteFact({ field, facts }: { field: unknown; facts?: SiteFacts }) {
  // Without the settings (a text shown where none were loaded) the value is left out, not guessed.
  if (!facts || !isSiteFact(field)) return null;
  if (field === "phone") {
    return (
      <a href={telHref(facts.phone)} className={linkClass}>
        {facts.phone}
      </a>
    );
  }
  if (field === "email") {
    return (
      <a href={`mailto:${facts.email}`} className={linkClass}>
        {facts.email}
      </a>
    );
  }
  return <>{facts[field]}</>;
}

/**
 * Rich text from the studio, styled for reading. `facts` are the Site settings values the text
 * may quote (legal pages, decision 054).
 */
export function RichText({ value, facts }: { value: PortableTextBody; facts?: SiteFacts }) {
  const withFacts = useMemo<PortableTextComponents>(
    () => ({
      ...components,
      types: {
        siteSettingRef: ({ value: ref }) => <SiteFact field={(ref as { field?: unknown }).field} facts={facts} />,
      },
    }),
    [facts],
  );
  return <PortableText value={value} components={withFacts} />;
}
