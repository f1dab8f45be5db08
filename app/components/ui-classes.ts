/**
 * The one set of classes for controls, links and buttons (decision 017): every form, link and
 * button of the site and the portal takes its look from here, so they look and behave alike.
 *
 * Pill buttons and pill links keep their utilities (`rounded-full px-…`): the high-contrast
 * theme finds pill links by `[class*="rounded-full"][class*="px-"]` (app/tailwind.css). Links
 * inside long lists use the component classes `row-link` and `tap-link` of app/tailwind.css
 * (decision 076), a few bytes a row instead of a hundred.
 */

/** A text input, a select or a textarea. */
export const inputClass =
  "mt-1 block min-h-11 w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-base text-slate-900 shadow-sm " +
  "focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-700 " +
  "aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 " +
  "dark:border-slate-400 dark:bg-slate-900 dark:text-white dark:aria-[invalid=true]:border-red-400 hc:border-2 hc:border-black";

/**
 * The lean look of a control in a long list (a booking card's e-mail or visit type, decision
 * 076): one component class of app/tailwind.css instead of the utilities above, a hundred bytes
 * a card cheaper. The kit's fields take it with `lean`.
 */
export const leanInputClass = "admin-field";

/** A file input: the button drawn as a pill, the chosen name beside it. */
export const fileInputClass =
  "mt-2 block w-full text-base text-slate-800 file:mr-4 file:min-h-11 file:rounded-full file:border-0 file:bg-brand-50 " +
  "file:px-4 file:py-2 file:font-semibold file:text-brand-800 hover:file:bg-brand-100 disabled:opacity-60 " +
  "dark:text-slate-100 dark:file:bg-brand-900 dark:file:text-brand-50";

/** A control's label, or a group's legend. */
export const labelClass = "block font-semibold text-slate-900 dark:text-white";

/** The label of a lean control (`leanInputClass`). */
export const leanLabelClass = "admin-label";

/** A hint under a control. */
export const hintClass = "mt-1 text-sm text-slate-700 dark:text-slate-300";

/** A control's (or a form's) messages. */
export const errorClass = "mt-1 text-sm font-medium text-red-800 dark:text-red-300";

/** A checkbox or a radio button. */
export const checkClass = "h-5 w-5 shrink-0";

/** A link in running text or in a table cell. */
export const linkClass = "row-link";

/** A link that stands on its own line: a 44 px touch target. */
export const tapLinkClass = "tap-link";

/**
 * One of a row of filter links (the Billing tab's statuses). The current one is filled, and
 * underlined as well, so that it stands out without colour (and in high contrast), not only to a
 * screen reader through aria-current.
 */
export const filterLinkClass = (current: boolean) =>
  "inline-flex min-h-11 items-center rounded-full border-2 px-4 py-1 font-semibold " +
  "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 " +
  (current
    ? "filter-current border-brand-700 bg-brand-700 text-white underline decoration-2 underline-offset-4 " +
      "dark:border-brand-300 dark:bg-brand-300 dark:text-brand-950 hc:border-black hc:bg-black"
    : "border-slate-400 text-slate-800 hover:bg-slate-100 dark:border-slate-500 dark:text-slate-100 dark:hover:bg-slate-800");

/** A link in the dark site footer. */
export const footerLinkClass = "footer-link";

const pill =
  "inline-flex min-h-11 items-center justify-center rounded-full px-5 py-2 font-semibold " +
  "disabled:cursor-wait disabled:opacity-70 aria-disabled:cursor-wait aria-disabled:opacity-70";

/** The main action of a form or a page (a `<button>` or a pill `<a>`). */
export const primaryButtonClass = `${pill} bg-brand-700 text-white shadow hover:bg-brand-800 dark:bg-brand-300 dark:text-brand-950 dark:hover:bg-brand-200 hc:bg-black`;

/**
 * `primaryButtonClass` as one component class of app/tailwind.css (the same utilities), for a
 * button repeated on every row of a long list: Today's "On my way" (decision 093).
 */
export const leanPrimaryButtonClass = "pill-primary";

/** A neutral action beside the main one (Skip, Cancel, Sign out elsewhere…). */
export const secondaryButtonClass = `${pill} border-2 border-slate-500 text-slate-900 hover:bg-slate-100 dark:border-slate-400 dark:text-white dark:hover:bg-slate-800`;

/** A brand-coloured outline action (Search, E-mail…). */
export const outlineButtonClass = `${pill} border-2 border-brand-700 text-brand-800 hover:bg-brand-50 dark:border-brand-300 dark:text-brand-100 dark:hover:bg-brand-950`;
