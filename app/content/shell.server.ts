// TEMPORARY: the content issue replaces this object with the site-settings document from
// Sanity (or the bundled dataset). The shell reads business facts only through this function.
export type ShellContent = {
  businessName: string;
  tagline: string;
  phone: string;
  email: string;
  hoursText: string;
  serviceAreas: string[];
  promises: string[];
  social: { network: "facebook" | "instagram" | "tiktok" | "youtube"; label: string; href: string }[];
  legalLinks: { label: string; href: string }[];
};

export async function getShellContent(): Promise<ShellContent> {
  return {
    businessName: "Swift Scoop Pet Waste Removal",
    tagline: "Pet waste removal and yard cleaning in Southern Nevada",
    phone: "(775) 555-0142",
    email: "hello@swiftscoopnv.com",
    hoursText: "Monday to Friday, 8am to 5pm",
    serviceAreas: ["Pahrump", "Las Vegas", "Henderson", "Beatty", "Spring Valley", "Summerlin"],
    promises: [
      "100% No Mess Guarantee",
      "Licensed and insured",
      "Eco-friendly, pet-safe products",
      "No contracts, cancel anytime",
      "Photo confirmation after each visit",
    ],
    social: [
      { network: "facebook", label: "Facebook", href: "https://www.facebook.com/swiftscoopnv" },
      { network: "instagram", label: "Instagram", href: "https://www.instagram.com/swiftscoopnv" },
      { network: "tiktok", label: "TikTok", href: "https://www.tiktok.com/@swiftscoopnv" },
      { network: "youtube", label: "YouTube", href: "https://www.youtube.com/@swiftscoopnv" },
    ],
    legalLinks: [
      { label: "Terms of Service", href: "/terms-of-service" },
      { label: "Privacy Policy", href: "/privacy-policy" },
      { label: "Disclaimer", href: "/disclaimer" },
      { label: "Accessibility", href: "/accessibility" },
    ],
  };
}
