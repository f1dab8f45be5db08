import "@remix-run/server-runtime";

declare module "@remix-run/server-runtime" {
  interface AppLoadContext {
    /** The Content-Security-Policy nonce that server.js generated for this request. */
    cspNonce?: string;
    /** The TCP peer address of the connection (server.js); see app/utils/client-ip.server.ts. */
    clientAddress?: string;
  }
}
