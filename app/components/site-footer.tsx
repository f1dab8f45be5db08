import { Link } from "@remix-run/react";
import type { ShellContent } from "~/content/shell.server";
import { SocialIcon } from "./social-icon";
import { telHref } from "~/utils/tel";
import { footerLinkClass } from "./ui-classes";

export function SiteFooter({ shell }: { shell: ShellContent }) {
  return (
    <footer className="mt-16 bg-slate-900 text-slate-200 hc:bg-black">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className="footer-heading">
            {shell.businessName}
          </h2>
          <p className="mt-2 text-slate-300">{shell.tagline}</p>
          <address className="mt-4 space-y-1 not-italic">
            <p>
              <a className={footerLinkClass} href={telHref(shell.phone)}>
                {shell.phone}
              </a>
            </p>
            <p>
              <a className={footerLinkClass} href={`mailto:${shell.email}`}>
                {shell.email}
              </a>
            </p>
            <p>{shell.hoursText}</p>
          </address>
        </section>

        <section aria-labelledby="footer-areas">
          <h2 id="footer-areas" className="footer-heading">
            Service area
          </h2>
          <ul className="mt-2 space-y-1">
            {shell.serviceAreas.map((area) => (
              <li key={area}>{area}</li>
            ))}
          </ul>
          <p className="mt-4">
            <Link className={footerLinkClass} to="/gallery">
              Before &amp; After
            </Link>
          </p>
        </section>

        <section aria-labelledby="footer-promises">
          <h2 id="footer-promises" className="footer-heading">
            Our promise
          </h2>
          <ul className="footer-checks mt-2 space-y-1">
            {shell.promises.map((promise) => (
              <li key={promise}>
                <span aria-hidden="true">✓</span>
                {promise}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="footer-heading">
            Legal
          </h2>
          <ul className="mt-2 space-y-1">
            {shell.legalLinks.map((l) => (
              <li key={l.href}>
                <Link className={footerLinkClass} to={l.href}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
          <ul className="mt-4 flex flex-wrap gap-2" aria-label="Social media">
            {shell.social.map((s) => (
              <li key={s.network}>
                <a
                  href={s.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${s.label} (opens in a new tab)`}
                  className="social-link-footer"
                >
                  <SocialIcon network={s.network} />
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <p className="border-t border-slate-700 px-4 py-6 text-center text-sm text-slate-300">
        © {new Date().getFullYear()} {shell.businessName}. All rights reserved.
      </p>
    </footer>
  );
}
