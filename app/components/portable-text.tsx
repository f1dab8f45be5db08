import { PortableText, type PortableTextComponents } from "@portabletext/react";
import { Link } from "@remix-run/react";
import type { PortableTextBody } from "~/content/types";

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
      const className =
        "font-medium text-brand-800 underline underline-offset-4 hover:text-brand-900 dark:text-brand-200 dark:hover:text-white";
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

/** Rich text from the studio, styled for reading. */
export function RichText({ value }: { value: PortableTextBody }) {
  return <PortableText value={value} components={components} />;
}
