/**
 * The development admin's two-step secret (base32). Development and test data only: seeded
 * with the development accounts, never in production (see README "Development accounts").
 * Add it to an authenticator app, or compute the code as tests/helpers/totp.ts does.
 */
export const DEV_ADMIN_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
