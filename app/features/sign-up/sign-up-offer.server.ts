import { firstOpenDay, firstVisitCandidates } from "./first-visit";
import type { SignUpAnswers } from "./sign-up-schema";
import { quoteSignUp, signUpMonthlyPrice, signUpPlans, type SignUpQuote } from "./sign-up-price";
import { getAddOns, getCatalogue, getSiteSettings } from "~/content/content.server";
import { WEEKDAYS, type PlanCard, type SignUpSettings, type SiteSettings } from "~/content/types";
import { addDays, businessToday, startOfBusinessDay, toBusinessInputValue } from "~/features/visits/visit-dates";
import { countScheduledVisitsByDay } from "~/models/visit.server";
import type { Db } from "~/utils/db.server";

/**
 * What /start offers for a visitor's answers, read fresh from Sanity on every step and on the last
 * post (docs/decisions/129): the area of a ZIP and its service days, the plans with their prices
 * for the dogs, the first visit a choice of days can have, and the quote. Nothing posted by the
 * browser (a price, a plan of another area) is ever read back.
 */

export type SignUpContent = {
  settings: SiteSettings;
  signUp: SignUpSettings;
  catalogue: PlanCard[];
  addOns: Awaited<ReturnType<typeof getAddOns>>;
};

/** Sanity's content for /start; null when the owner has not opened it (no Start online settings). */
export async function loadSignUpContent(): Promise<SignUpContent | null> {
  const [settings, catalogue, addOns] = await Promise.all([getSiteSettings(), getCatalogue(), getAddOns()]);
  if (!settings.signUp) return null;
  return { settings, signUp: settings.signUp, catalogue, addOns };
}

/** The area serving a ZIP, or null (outside: the waitlist). */
export function areaOf(signUp: SignUpSettings, zip: string) {
  return signUp.areas.find((area) => area.zipCodes.includes(zip)) ?? null;
}

/** The area's service days as plan weekdays (Monday 1 ... Friday 5). */
export function areaWeekdays(area: SignUpSettings["areas"][number]): number[] {
  return area.serviceDays
    .map((name) => WEEKDAYS.indexOf(name) + 1)
    .filter((day) => day >= 1 && day <= 5)
    .sort((a, b) => a - b);
}

export type PlanOffer = {
  id: string;
  name: string;
  visitsPerWeek: number;
  monthlyCents: number;
  description: string | null;
};

/** The subscription plans with their monthly price for this many dogs (what the plan will lock). */
export function planOffers(content: SignUpContent, dogCount: number, areaDays: number): PlanOffer[] {
  return signUpPlans(content.catalogue).flatMap((card) => {
    const price = signUpMonthlyPrice(card, dogCount, content.addOns);
    // A plan with more visits a week than the area has service days cannot be served there.
    if (!price || card.visitsPerWeek === null || card.visitsPerWeek > areaDays) return [];
    return [
      {
        id: card._id,
        name: card.name,
        visitsPerWeek: card.visitsPerWeek,
        monthlyCents: price.priceCents + price.addOnCents,
        description: card.shortDescription ?? null,
      },
    ];
  });
}

/**
 * The first visit for these weekdays from `now`: today before the cut-off, else the next service
 * day that is not closed and not full (the owner's visits a day). Null when two weeks are full.
 */
export async function firstVisitDay(
  db: Db,
  content: SignUpContent,
  weekdays: readonly number[],
  now: Date,
): Promise<string | null> {
  const today = businessToday(now);
  const candidates = firstVisitCandidates({
    today,
    timeNow: toBusinessInputValue(now).slice(11, 16),
    sameDayCutoff: content.signUp.sameDayCutoff,
    weekdays,
    closedDays: new Set(content.settings.planRules.closedDays.map((day) => day.date)),
  });
  if (candidates.length === 0) return null;
  const visits = await countScheduledVisitsByDay(
    db,
    startOfBusinessDay(candidates[0])!,
    startOfBusinessDay(addDays(candidates[candidates.length - 1], 1))!,
  );
  return firstOpenDay(candidates, visits, content.signUp.dailyVisitCapacity);
}

export type SignUpOffer = {
  area: SignUpSettings["areas"][number];
  plan: PlanOffer;
  weekdays: number[];
  firstVisit: string;
  quote: SignUpQuote;
};

export type OfferRefusal = { ok: false; step: "zip" | "yard" | "plan" | "days"; message: string };

/**
 * Every answer checked against today's content, then priced: the offer the summary shows and
 * the last step stores. A refusal names the step to go back to.
 */
export async function offerFor(
  db: Db,
  content: SignUpContent,
  answers: SignUpAnswers,
  now: Date,
): Promise<{ ok: true; offer: SignUpOffer } | OfferRefusal> {
  const area = answers.zip ? areaOf(content.signUp, answers.zip) : null;
  if (!area) return { ok: false, step: "zip", message: "Enter a ZIP code in our service area." };
  const days = areaWeekdays(area);
  if (!answers.dogCount || !answers.lastCleaned || !answers.yardSize || !answers.street) {
    return { ok: false, step: "yard", message: "Tell us about your yard." };
  }
  const plan = planOffers(content, answers.dogCount, days.length).find((offer) => offer.id === answers.cataloguePlanId);
  if (!plan) return { ok: false, step: "plan", message: "Pick one of the plans." };
  const weekdays = [...new Set(answers.weekdays ?? [])].sort((a, b) => a - b);
  if (weekdays.length !== plan.visitsPerWeek || weekdays.some((day) => !days.includes(day))) {
    return { ok: false, step: "days", message: serviceDaysMessage(plan.visitsPerWeek) };
  }
  const firstVisit = await firstVisitDay(db, content, weekdays, now);
  if (!firstVisit) {
    return { ok: false, step: "days", message: "Those days are full for the next two weeks: pick other days." };
  }
  const card = content.catalogue.find((entry) => entry._id === plan.id);
  const quote = quoteSignUp({
    card,
    dogCount: answers.dogCount,
    addOns: content.addOns,
    settings: content.signUp,
    lastCleaned: answers.lastCleaned,
    weekdays,
    startDate: firstVisit,
    prorateFirstMonth: content.settings.billingRules.prorateFirstMonth,
  });
  if (!quote) return { ok: false, step: "yard", message: "Tell us when the yard was last cleaned." };
  return { ok: true, offer: { area, plan, weekdays, firstVisit, quote } };
}

export function serviceDaysMessage(visitsPerWeek: number) {
  return visitsPerWeek === 1 ? "Pick 1 service day." : `Pick ${visitsPerWeek} service days.`;
}
