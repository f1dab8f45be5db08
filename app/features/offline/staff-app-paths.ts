/** The phone app's addresses (docs/decisions/127), shared by the server and the pages. */
export const STAFF_APP_START = "/admin-dashboard/visits/today";
export const STAFF_APP_SCOPE = "/admin-dashboard/";
export const STAFF_APP_MANIFEST_URL = "/resources/staff-app.webmanifest";
