/**
 * The header the staff app's service worker sends with the pages it fetches in the background
 * to keep them for offline (app/features/offline/staff-app.sw.ts, decision 127). Such a request
 * is nobody's navigation: it must not take the flash toast meant for the page the person is
 * opening (it did: a "Move down" answered "Order saved" to a prefetch, and Today showed nothing).
 * Anyone may send it; all it does is leave their own toast for their next page.
 */
export const BACKGROUND_FETCH_HEADER = "X-Staff-App-Background";
