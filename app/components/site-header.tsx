import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ShellContent } from "~/content/shell.server";
import { SocialIcon } from "./social-icon";

const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/services", label: "Services" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `nav-link transition-colors ${isActive ? "nav-link-active" : "text-slate-800 dark:text-slate-100"}`;

function SignInOut({ signedIn, className }: { signedIn: boolean; className: string }) {
  if (signedIn) {
    return (
      <Form method="post" action="/logout" className="contents">
        <button type="submit" className={className}>
          Sign Out
        </button>
      </Form>
    );
  }
  return (
    <Link to="/auth" className={className}>
      Sign In
    </Link>
  );
}

/** `className` says where the list shows (the header has one for each layout, see SiteHeader). */
function SocialLinks({ social, className }: { social: ShellContent["social"]; className: string }) {
  return (
    <ul className={`items-center gap-1 ${className}`} aria-label="Social media">
      {social.map((s) => (
        <li key={s.network}>
          <a
            href={s.href}
            className="social-link"
            rel="noopener noreferrer"
            target="_blank"
            aria-label={`${s.label} (opens in a new tab)`}
          >
            <SocialIcon network={s.network} />
          </a>
        </li>
      ))}
    </ul>
  );
}

const bookNowClass = "nav-book";
const signInClass = "nav-sign-in";

export function SiteHeader({ shell, signedIn }: { shell: ShellContent; signedIn: boolean }) {
  const menuRef = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // The small-screen menu is a <details>, so it opens and closes without JavaScript; with
  // JavaScript it also closes whenever a link is followed.
  useEffect(() => {
    if (menuRef.current) menuRef.current.open = false;
  }, [location.pathname, location.search]);
  // A link to the page already shown changes no location, so the effect above would leave the
  // menu open over the page: following any of its links closes it.
  const closeMenu = () => {
    if (menuRef.current) menuRef.current.open = false;
  };

  return (
    // Large text (accessibility panel) makes the header tall: it stops being sticky, may wrap
    // (.site-header in app/tailwind.css), and keeps the small-screen menu up to a wider
    // breakpoint (the wide: variant).
    <header className="site-header">
      <div>
        <Link to="/" className="flex items-center gap-2 text-lg font-bold ink-brand">
          <img src="/favicon.svg" alt="" width={32} height={32} className="h-8 w-8" />
          <span>{shell.businessName}</span>
        </Link>

        {/*
          One nav for both layouts (decision 074). Wide (the `wide:` variant: lg, or wider at large
          text), a row in the header; narrower, the small-screen menu: the <details> before it is
          its toggle (no JavaScript needed), and the nav shows below the header while it is open.
        */}
        <details ref={menuRef} className="group wide:hidden" data-testid="mobile-menu">
          <summary className="menu-summary" aria-controls="site-navigation">
            <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
              <path
                className="group-open:hidden"
                d="M3 6h18M3 12h18M3 18h18"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
              <path
                className="hidden group-open:block"
                d="M6 6l12 12M18 6L6 18"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
            <span>Menu</span>
          </summary>
        </details>
        <nav id="site-navigation" aria-label="Main" className="site-nav">
          <ul className="flex flex-col gap-1 wide:flex-row wide:items-center">
            {NAV_LINKS.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} end={l.to === "/"} className={navLinkClass} prefetch="intent" onClick={closeMenu}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
          {/* The same order as on screen in both layouts: the social links come before the
              buttons in the row, after them in the menu. */}
          <SocialLinks social={shell.social} className="hidden wide:flex" />
          <div className="mt-4 flex flex-wrap items-center gap-3 wide:contents">
            <Link to="/contact" className={bookNowClass} onClick={closeMenu}>
              Book Now
            </Link>
            <SignInOut signedIn={signedIn} className={signInClass} />
          </div>
          <SocialLinks social={shell.social} className="mt-4 flex wide:hidden" />
        </nav>
      </div>
    </header>
  );
}
