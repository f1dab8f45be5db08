import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { log, refererForLog } from "~/utils/logger.server";

// Every unknown URL lands here: one structured log line, then the 404 page.
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  log.warn("http.not_found", {
    method: request.method,
    path: url.pathname,
    referer: refererForLog(request.headers.get("referer")),
  });
  throw new Response("Not Found", { status: 404 });
}

export async function action(args: LoaderFunctionArgs) {
  return loader(args);
}

export const meta: MetaFunction = () => [
  { title: "Page not found" },
  {
    name: "description",
    content: "The page you asked for does not exist. Return to the home page to find our services.",
  },
  { name: "robots", content: "noindex" },
];

export default function NotFoundRoute() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
