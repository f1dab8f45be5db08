import type { SiteSettings } from "./types";

/**
 * The Site settings values a legal text quotes through `siteSettingRef` inline objects (decision
 * 054), written as the page shows them. Keyed by the object's `field`.
 */
export type SiteFacts = {
  businessName: string;
  phone: string;
  email: string;
  /** The settings' service areas joined as a sentence ("A, B and C"). */
  serviceAreas: string;
  /** The settings' opening hours as one line. */
  hours: string;
  /** The plan rules the Terms quote (Site settings > Plans & schedule). */
  changeNoticeHours: string;
  longestPauseDays: string;
  /** The billing rule the Terms quote: the notice before a new price applies (decision 116). */
  priceChangeNoticeDays: string;
};

export function isSiteFact(field: unknown): field is keyof SiteFacts {
  return (
    field === "businessName" ||
    field === "phone" ||
    field === "email" ||
    field === "serviceAreas" ||
    field === "hours" ||
    field === "changeNoticeHours" ||
    field === "longestPauseDays" ||
    field === "priceChangeNoticeDays"
  );
}

/** "A", "A and B", "A, B and C": the way the pages list places. */
function listOfPlaces(places: string[]): string {
  return places.length < 2 ? (places[0] ?? "") : `${places.slice(0, -1).join(", ")} and ${places[places.length - 1]}`;
}

export function siteFacts(settings: SiteSettings): SiteFacts {
  return {
    businessName: settings.businessName,
    phone: settings.phone,
    email: settings.email,
    serviceAreas: listOfPlaces(settings.serviceAreas),
    hours: settings.hours.display,
    changeNoticeHours: String(settings.planRules.changeNoticeHours),
    longestPauseDays: String(settings.planRules.longestPauseDays),
    priceChangeNoticeDays: String(settings.billingRules.priceChangeNoticeDays),
  };
}
