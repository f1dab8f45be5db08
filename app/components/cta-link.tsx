import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

const base =
  "inline-flex min-h-11 items-center justify-center rounded-full px-6 py-2.5 text-base font-semibold shadow-sm transition-colors motion-off:transition-none focus-visible:outline-offset-4";

const variants = {
  primary:
    "bg-brand-700 text-white hover:bg-brand-800 dark:bg-brand-400 dark:text-brand-950 dark:hover:bg-brand-300 hc:bg-black hc:text-white hc:underline",
  secondary:
    "border-2 border-brand-700 bg-white text-brand-800 hover:bg-brand-50 dark:border-brand-300 dark:bg-transparent dark:text-brand-100 dark:hover:bg-brand-900 hc:border-black hc:text-black",
  inverse: "bg-white text-brand-900 hover:bg-brand-50 hc:text-black hc:underline",
} as const;

export function CtaLink({
  to,
  variant = "primary",
  children,
  className = "",
}: {
  to: string;
  variant?: keyof typeof variants;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Link to={to} className={`${base} ${variants[variant]} ${className}`} prefetch="intent">
      {children}
    </Link>
  );
}
