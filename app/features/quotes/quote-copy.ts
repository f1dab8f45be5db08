/**
 * The sentences a visitor reads after sending a quote request: on the success screen, in the
 * toast and in the confirmation e-mail, so they never disagree. Facts (hours, ZIP) are passed in
 * from content and the request.
 */

export const QUOTE_SENT_TITLE = "Quote request sent";

/** "We'll get back to you within our business hours: {the hours from site settings}." */
export function quoteNextSteps(hoursDisplay: string): string {
  return `We'll get back to you within our business hours: ${hoursDisplay}.`;
}

/** Said honestly, not as a rejection: the team checks before saying no. */
export function quoteOutsideArea(zip: string): string {
  return `The ZIP code ${zip} may be outside our service area. We have your request, and our team will confirm whether we can serve your address.`;
}

/** The estimate is labelled as one wherever it is shown. */
export function quoteEstimateSentence(label: string): string {
  return `Estimated price: ${label}`;
}

export const QUOTE_ESTIMATE_NOTE = "This is an estimate, not a final price.";
