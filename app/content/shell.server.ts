import { getSiteSettings } from "./content.server";
import { LEGAL_PAGES } from "./legal-pages";

/** What the document shell (nav, footer) shows, read from the site settings document. */
export type ShellContent = {
  businessName: string;
  tagline: string;
  phone: string;
  email: string;
  hoursText: string;
  serviceAreas: string[];
  promises: string[];
  social: { network: SocialNetwork; label: string; href: string }[];
  legalLinks: { label: string; href: string }[];
  /** The external scheduling page customers book visits on. */
  bookingCalendarUrl: string;
};

type SocialNetwork = "facebook" | "instagram" | "tiktok" | "youtube";

const SOCIAL_NETWORKS: { network: SocialNetwork; label: string }[] = [
  { network: "facebook", label: "Facebook" },
  { network: "instagram", label: "Instagram" },
  { network: "tiktok", label: "TikTok" },
  { network: "youtube", label: "YouTube" },
];

export async function getShellContent(): Promise<ShellContent> {
  const settings = await getSiteSettings();
  return {
    businessName: settings.businessName,
    tagline: settings.tagline,
    phone: settings.phone,
    email: settings.email,
    hoursText: settings.hours.display,
    serviceAreas: settings.serviceAreas,
    promises: settings.promises.map((promise) => promise.title),
    // A network without a link in the settings is left out rather than linked nowhere.
    social: SOCIAL_NETWORKS.flatMap(({ network, label }) => {
      const href = settings.social?.[network];
      return href ? [{ network, label, href }] : [];
    }),
    legalLinks: LEGAL_PAGES.map((page) => ({ label: page.label, href: `/${page.slug}` })),
    bookingCalendarUrl: settings.bookingCalendarUrl,
  };
}
