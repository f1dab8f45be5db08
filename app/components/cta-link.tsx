import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

const base = "btn";

const variants = {
  primary: "btn-primary",
  secondary: "btn-secondary",
  inverse: "btn-inverse",
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
