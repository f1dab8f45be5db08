/**
 * Headers of a page whose URL carries a secret token (the verification and reset links): no
 * Referer leaves it (an image, a link, a missing page would carry the token away), and no cache
 * keeps it. server.js lets a response's Referrer-Policy replace its site-wide default.
 */
export const TOKEN_PAGE_HEADERS = { "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" } as const;
