import { UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from "./database-errors.server";

/**
 * The page a visitor gets while the database cannot be reached. Standalone (no content, no
 * session, no scripts): everything the normal shell needs may be what is failing.
 */
export function databaseUnavailablePage() {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Temporarily unavailable</title>
<style>body{font-family:system-ui,sans-serif;margin:0;padding:4rem 1rem;color:#0f172a;background:#fff;text-align:center}main{max-width:36rem;margin:0 auto}h1{font-size:1.75rem}a{color:#1d4ed8}</style>
</head>
<body>
<main>
<h1>${UNAVAILABLE_MESSAGE}</h1>
<p><a href="">Reload this page</a></p>
</main>
</body>
</html>`;
}

export function databaseUnavailableResponse(headers: Record<string, string>, body: string) {
  return new Response(body, {
    status: 503,
    headers: { ...headers, "Cache-Control": "no-store", "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  });
}
