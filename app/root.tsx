import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { A11yHeadScript } from "~/components/a11y-head-script";
import { AccessibilityPanel } from "~/components/accessibility-panel";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FlashToast } from "~/components/flash-toast";
import { PreviewOverlays } from "~/components/preview-overlays";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { IconSprite } from "~/components/social-icon";
import { isPreviewing } from "~/content/preview.server";
import { getShellContent } from "~/content/shell.server";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { browserScriptUrl } from "~/utils/browser-scripts.server";
import { useNonce } from "~/utils/nonce";
import { useStaticPage } from "~/utils/static-page";
import { getToast } from "~/utils/toast.server";
import stylesheet from "~/tailwind.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/favicon.svg" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [shell, user, { toast, headers }] = await Promise.all([
    getShellContent(),
    getOptionalUser(request, context),
    getToast(request),
  ]);
  return json(
    {
      shell,
      user: user ? { email: user.email, isAdmin: user.isStaff } : null,
      toast,
      preview: isPreviewing(),
      toastScript: browserScriptUrl("static-toast"),
      panelScript: browserScriptUrl("accessibility-panel"),
    },
    { headers },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.shell.businessName ?? "Pet waste removal" },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  // A static page (decision 066) ships no framework, unless it has a live preview (Sanity's
  // overlays need React) to show; its toast has a plain script of its own (075).
  const staticPage = useStaticPage();
  return (
    // The head script sets classes and the font size on <html> before the first paint.
    // data-hydrated says the page is live (tests wait for it): set by React once it has
    // hydrated, or on a static page by the panel's script, the page's last module script.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <A11yHeadScript nonce={nonce} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#166440" />
        <Meta />
        <Links />
      </head>
      {/* The body's layout and colours are in app/tailwind.css (base layer). */}
      <body>
        {/* sr-only stays in the markup: what is visually hidden is found by that class (tests). */}
        <a href="#main-content" className="sr-only skip-link">
          Skip to main content
        </a>
        {data ? <SiteHeader shell={data.shell} signedIn={Boolean(data.user)} /> : null}
        <main id="main-content" tabIndex={-1} className="flex-1 focus:outline-none">
          {children}
        </main>
        {data ? <SiteFooter shell={data.shell} /> : null}
        <IconSprite />
        <AccessibilityPanel script={data?.panelScript} />
        <FlashToast toast={data?.toast} />
        {data?.preview ? <PreviewOverlays /> : null}
        {staticPage ? null : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  // Lets browser tests (and CSS, if ever needed) know that React has taken over the page.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
