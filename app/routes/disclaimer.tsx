import type { LoaderFunctionArgs } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LegalDocument, legalMeta } from "~/components/legal-document";
import { loadLegalPage } from "~/content/legal-page.server";
import { publicPageHeaders } from "~/utils/cache-headers";

export async function loader({ request }: LoaderFunctionArgs) {
  return loadLegalPage(request, "disclaimer");
}

export const headers = publicPageHeaders;

export default function Disclaimer() {
  return <LegalDocument />;
}

export const meta = legalMeta;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
