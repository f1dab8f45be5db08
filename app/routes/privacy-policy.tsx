import type { LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LegalDocument, legalMeta } from "~/components/legal-document";
import { loadLegalPage } from "~/content/legal-page.server";
import { publicPageHeaders } from "~/utils/cache-headers";
import { STATIC_PAGE } from "~/utils/static-page";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadLegalPage(request, "privacy-policy");
}

// A static page: no React in the browser for an anonymous visit (decision 066).
export const handle = STATIC_PAGE;

export const headers = publicPageHeaders;

export default function PrivacyPolicy() {
  return <LegalDocument />;
}

export const meta = legalMeta;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
