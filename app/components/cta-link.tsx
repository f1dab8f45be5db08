import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

// Transitions stay utilities in the markup (browser tests find what moves by its class).
const base = "btn transition-colors motion-off:transition-none";

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
