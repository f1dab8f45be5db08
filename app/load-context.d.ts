import "@remix-run/server-runtime";

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** The Content-Security-Policy nonce that server.js generated for this request. */
    cspNonce?: string;
    /** Set by entry.server's handleError when the database could not be reached. */
    databaseUnavailable?: boolean;
    /** The TCP peer address of the connection (server.js); see app/utils/client-ip.server.ts. */
    clientAddress?: string;
  }
}
