import { parseWithZod } from "@conform-to/zod";
import { json, redirect } from "@remix-run/node";
import { EMAIL_HAS_ACCOUNT, finishSignUp, SignUpError, type AccountChoice } from "./sign-up-finish.server";
import {
  areaOf,
  areaWeekdays,
  firstVisitDay,
  loadSignUpContent,
  offerFor,
  planOffers,
  serviceDaysMessage,
  type SignUpContent,
  type SignUpOffer,
} from "./sign-up-offer.server";
import {
  accountStepSchema,
  daysStepSchema,
  firstMissingStep,
  planStepSchema,
  SIGN_UP_STEPS,
  signedInAccountStepSchema,
  stepIndex,
  waitlistSchema,
  yardStepSchema,
  zipStepSchema,
  type SignUpAnswers,
  type SignUpStep,
  type StartPage,
} from "./sign-up-schema";
import { readSignUp, saveAnswers, signUpClientKey, WAITLIST_LIMIT, clearSignUpCookie } from "./sign-up-state.server";
import { termsExcerpt } from "./terms-excerpt";
import { countSignUpAttempt, tooManyAttemptsMessage, BUSY_MESSAGE } from "~/features/accounts/auth-limits.server";
import { getOptionalUser } from "~/features/accounts/auth.server";
import { sendVerificationEmail } from "~/features/accounts/email-verification.server";
import { PasswordQueueBusy } from "~/features/accounts/password.server";
import { toMobileE164 } from "~/features/notices/mobile-number.server";
import { describeWeekdays, WEEKDAY_NAMES } from "~/features/plans/plan-schedule";
import { isHoneypotSpam } from "~/features/quotes/quote-honeypot.server";
import { getLegalPage } from "~/content/content.server";
import { siteFacts } from "~/content/site-facts";
import { startOfBusinessDay } from "~/features/visits/visit-dates";
import { findUserCredentials } from "~/models/account.server";
import { hitRateLimit } from "~/models/rate-limit.server";
import { insertWaitlistEntry } from "~/models/waitlist.server";
import { formatBusinessDate } from "~/utils/business-time";
import { getClientKey } from "~/utils/client-ip.server";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { createUserSessionHeaders } from "~/utils/session.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import type { PlanWeekday } from "../../../db/enums";

/**
 * /start's loader and action (docs/decisions/129): which page a visitor may see for their answers,
 * what it shows, and each step's post. Every step is a plain form post answered by a redirect to
 * the next step (so a reload or the back button repeats nothing), or by a 400 with the form's
 * messages; the answers live server-side (sign-up-state.server.ts).
 */

const NO_STORE = { "Cache-Control": "private, no-store" };
const pageUrl = (page: StartPage) => (page === "zip" ? "/start" : `/start?step=${page}`);
const dayLabel = (day: string) => formatBusinessDate(startOfBusinessDay(day)!);

function requestedPage(request: Request): StartPage {
  const step = new URL(request.url).searchParams.get("step");
  if (step === "waitlist" || step === "waitlisted") return step;
  return (SIGN_UP_STEPS as readonly string[]).includes(step ?? "") ? (step as SignUpStep) : "zip";
}

function progress(page: StartPage) {
  const index = (SIGN_UP_STEPS as readonly string[]).indexOf(page);
  return index < 0 ? null : { step: index + 1, of: SIGN_UP_STEPS.length };
}

/** The page to show, or a redirect to the first step whose answers are missing. */
function allowedPage(page: StartPage, answers: SignUpAnswers | null): StartPage {
  if (page === "zip") return "zip";
  if (!answers || page === "closed") return "zip";
  if (page === "waitlist" || page === "waitlisted") return answers.zip && answers.inArea === false ? page : "zip";
  const missing = firstMissingStep(answers);
  return stepIndex(page) <= stepIndex(missing) ? page : missing;
}

export async function loadStartPage(request: Request, context: object) {
  const content = await loadSignUpContent();
  const base = { progress: null as ReturnType<typeof progress> };
  if (!content) return json({ ...base, page: "closed" as const }, { headers: NO_STORE });
  const current = await readSignUp(request);
  const wanted = requestedPage(request);
  const page = allowedPage(wanted, current?.answers ?? null);
  if (page !== wanted) throw redirect(pageUrl(page), { headers: NO_STORE });
  const answers = current?.answers ?? {};
  const view = await pageView(page, content, answers, request, context);
  return json({ ...view, progress: progress(page) }, { headers: NO_STORE });
}

async function pageView(
  page: StartPage,
  content: SignUpContent,
  answers: SignUpAnswers,
  request: Request,
  context: object,
) {
  const db = await getDb();
  switch (page) {
    case "zip":
    case "closed":
      return { page: "zip" as const, zip: answers.zip ?? "" };
    case "waitlist":
    case "waitlisted":
      return { page, zip: answers.zip ?? "" };
    case "yard":
      return {
        page,
        answers: {
          dogCount: answers.dogCount ?? null,
          yardSize: answers.yardSize ?? null,
          lastCleaned: answers.lastCleaned ?? null,
          street: answers.street ?? "",
          city: answers.city ?? "",
          hazards: answers.hazards ?? "",
          // The gate code is kept, never sent back to the page (decision 032): only whether there is one.
          hasGateCode: Boolean(answers.gateCode),
        },
        cleans: content.signUp.initialCleans.map((clean) => ({
          answer: clean.answer,
          label: clean.label,
          cents: Math.round(clean.amount * 100),
        })),
      };
    case "plan": {
      const area = areaOf(content.signUp, answers.zip!)!;
      return {
        page,
        dogCount: answers.dogCount!,
        chosen: answers.cataloguePlanId ?? null,
        offers: planOffers(content, answers.dogCount!, areaWeekdays(area).length),
      };
    }
    case "days": {
      const area = areaOf(content.signUp, answers.zip!)!;
      const plan = planOffers(content, answers.dogCount!, areaWeekdays(area).length).find(
        (offer) => offer.id === answers.cataloguePlanId,
      );
      if (!plan) throw redirect(pageUrl("plan"), { headers: NO_STORE });
      const now = new Date();
      const days = await Promise.all(
        areaWeekdays(area).map(async (day) => {
          const first = await firstVisitDay(db, content, [day], now);
          return { day, name: WEEKDAY_NAMES[day as PlanWeekday], first: first ? dayLabel(first) : null };
        }),
      );
      return {
        page,
        areaName: area.name,
        planName: plan.name,
        needed: plan.visitsPerWeek,
        chosen: answers.weekdays ?? [],
        days,
      };
    }
    case "summary": {
      const priced = await offerFor(db, content, answers, new Date());
      if (!priced.ok) throw redirect(pageUrl(priced.step), { headers: NO_STORE });
      const { offer } = priced;
      const terms = await getLegalPage("terms-of-service");
      return {
        page,
        summary: summaryView(offer),
        terms: terms ? termsExcerpt(terms.body) : [],
        facts: siteFacts(content.settings),
      };
    }
    case "account": {
      const user = await getOptionalUser(request, context);
      return {
        page,
        businessName: content.settings.businessName,
        signedIn: user && !user.isStaff ? { name: user.fullName, email: user.email } : null,
        staffSignedIn: Boolean(user?.isStaff),
      };
    }
  }
}

function summaryView(offer: SignUpOffer) {
  return {
    planName: offer.plan.name,
    days: describeWeekdays(offer.weekdays),
    firstVisit: dayLabel(offer.firstVisit),
    monthlyCents: offer.quote.monthlyCents,
    initialCleanCents: offer.quote.initialCleanCents,
    initialCleanLabel: offer.quote.initialCleanLabel,
    firstMonthCents: offer.quote.firstMonth.amountCents,
    firstMonthVisits: offer.quote.firstMonth.visits,
    firstMonthOf: offer.quote.firstMonth.of,
    prorated: offer.quote.firstMonth.kind === "prorated_month",
    todayCents: offer.quote.todayCents,
  };
}

type Refusal = {
  page: StartPage;
  formErrors?: string[];
  fieldErrors?: Record<string, string[] | null>;
  signIn?: boolean;
};

function refuse(status: number, refusal: Refusal, headers: HeadersInit = {}) {
  return json({ refusal }, { status, headers: { ...NO_STORE, ...headers } });
}

function tooMany(page: StartPage, retryAfterSeconds: number) {
  return refuse(
    429,
    { page, formErrors: [tooManyAttemptsMessage(retryAfterSeconds)] },
    {
      "Retry-After": String(retryAfterSeconds),
    },
  );
}

/** Saves the answers and goes on to `next`. */
async function saveAndGo(
  request: Request,
  context: object,
  current: Awaited<ReturnType<typeof readSignUp>>,
  answers: SignUpAnswers,
  next: StartPage,
  page: StartPage,
) {
  const saved = await saveAnswers(request, context, current, answers);
  if (!saved.ok) return tooMany(page, saved.retryAfterSeconds);
  saved.headers.set("Cache-Control", "private, no-store");
  return redirect(pageUrl(next), { headers: saved.headers });
}

export async function handleStartPost(request: Request, context: object) {
  const page = requestedPage(request);
  const formData = await request.formData().catch(() => null);
  if (!formData) return refuse(400, { page, formErrors: ["We could not read the form. Please try again."] });
  const content = await loadSignUpContent();
  if (!content) throw redirect("/start");
  // Bots fill the field people never see: they are sent back to the start, nothing is stored.
  if (isHoneypotSpam(formData)) {
    log.info("start.honeypot", { page });
    return redirect("/start", { headers: NO_STORE });
  }
  const current = await readSignUp(request);
  const allowed = allowedPage(page, current?.answers ?? null);
  if (allowed !== page && page !== "zip") throw redirect(pageUrl(allowed), { headers: NO_STORE });
  const answers: SignUpAnswers = { ...(current?.answers ?? {}) };

  switch (page) {
    case "zip": {
      const submission = parseWithZod(formData, { schema: zipStepSchema });
      if (submission.status !== "success") return refuse(400, { page, fieldErrors: submission.reply().error ?? {} });
      const inArea = areaOf(content.signUp, submission.value.zip) !== null;
      const next = { ...answers, zip: submission.value.zip, inArea };
      // Another ZIP is another area: its days and plans are asked again.
      if (answers.zip !== submission.value.zip) delete next.weekdays;
      return saveAndGo(request, context, current, next, inArea ? "yard" : "waitlist", page);
    }
    case "waitlist": {
      const submission = parseWithZod(formData, { schema: waitlistSchema });
      if (submission.status !== "success") return refuse(400, { page, fieldErrors: submission.reply().error ?? {} });
      const limit = await hitRateLimit(`waitlist:${signUpClientKey(request, context)}`, WAITLIST_LIMIT);
      if (!limit.allowed) return tooMany(page, limit.retryAfterSeconds);
      const { email, zip } = submission.value;
      if (areaOf(content.signUp, zip)) {
        return saveAndGo(request, context, current, { ...answers, zip, inArea: true }, "yard", page);
      }
      await insertWaitlistEntry(await getDb(), email, zip);
      log.info("start.waitlisted", {});
      return saveAndGo(
        request,
        context,
        current,
        { ...answers, zip, inArea: false, waitlisted: true },
        "waitlisted",
        page,
      );
    }
    case "yard": {
      const submission = parseWithZod(formData, { schema: yardStepSchema });
      if (submission.status !== "success") {
        return refuse(400, { page, fieldErrors: submission.reply({ hideFields: ["gateCode"] }).error ?? {} });
      }
      const value = submission.value;
      if (!content.signUp.initialCleans.some((clean) => clean.answer === value.lastCleaned)) {
        return refuse(400, { page, fieldErrors: { lastCleaned: ["When was the yard last cleaned?"] } });
      }
      return saveAndGo(
        request,
        context,
        current,
        {
          ...answers,
          dogCount: value.dogCount,
          yardSize: value.yardSize,
          lastCleaned: value.lastCleaned,
          street: value.street,
          city: value.city || undefined,
          // An empty gate code field keeps the one given before (the page never shows it).
          gateCode: value.gateCode || answers.gateCode,
          hazards: value.hazards || undefined,
        },
        "plan",
        page,
      );
    }
    case "plan": {
      const submission = parseWithZod(formData, { schema: planStepSchema });
      const area = areaOf(content.signUp, answers.zip!)!;
      const offers = planOffers(content, answers.dogCount!, areaWeekdays(area).length);
      // Only a plan this page offered: another id (or one of another area) is refused.
      const plan =
        submission.status === "success" ? offers.find((o) => o.id === submission.value.cataloguePlanId) : null;
      if (!plan) return refuse(400, { page, fieldErrors: { cataloguePlanId: ["Pick one of the plans"] } });
      const next = { ...answers, cataloguePlanId: plan.id };
      if (answers.cataloguePlanId !== plan.id) delete next.weekdays;
      return saveAndGo(request, context, current, next, "days", page);
    }
    case "days": {
      const submission = parseWithZod(formData, { schema: daysStepSchema });
      const area = areaOf(content.signUp, answers.zip!)!;
      const plan = planOffers(content, answers.dogCount!, areaWeekdays(area).length).find(
        (offer) => offer.id === answers.cataloguePlanId,
      );
      if (!plan) throw redirect(pageUrl("plan"));
      const allowedDays = areaWeekdays(area);
      const days = submission.status === "success" ? [...new Set(submission.value.weekdays)].sort() : [];
      if (days.length !== plan.visitsPerWeek || days.some((day) => !allowedDays.includes(day))) {
        return refuse(400, { page, fieldErrors: { weekdays: [serviceDaysMessage(plan.visitsPerWeek)] } });
      }
      const next = { ...answers, weekdays: days };
      const priced = await offerFor(await getDb(), content, next, new Date());
      if (!priced.ok) return refuse(409, { page, fieldErrors: { weekdays: [priced.message] } });
      return saveAndGo(request, context, current, next, "summary", page);
    }
    case "summary":
      return redirect(pageUrl("account"), { headers: NO_STORE });
    case "account":
      return finishFromForm(request, context, formData, current!);
    default:
      return redirect("/start");
  }
}

async function finishFromForm(
  request: Request,
  context: object,
  formData: FormData,
  current: NonNullable<Awaited<ReturnType<typeof readSignUp>>>,
) {
  const page = "account" as const;
  const user = await getOptionalUser(request, context);
  const signedIn = user && !user.isStaff ? user : null;
  const ip = getClientKey(request, context);
  let account: AccountChoice;
  let mobileText: string | undefined;
  let textVisits: boolean;
  if (signedIn) {
    const submission = parseWithZod(formData, { schema: signedInAccountStepSchema });
    if (submission.status !== "success") return refuse(400, { page, fieldErrors: submission.reply().error ?? {} });
    account = {
      kind: "signed-in",
      userId: signedIn.id,
      fullName: signedIn.fullName ?? signedIn.email,
      email: signedIn.email,
      isStaff: false,
    };
    mobileText = submission.value.mobilePhone;
    textVisits = submission.value.textVisits === "on";
  } else {
    const submission = parseWithZod(formData, { schema: accountStepSchema });
    if (submission.status !== "success") {
      return refuse(400, { page, fieldErrors: submission.reply({ hideFields: ["password"] }).error ?? {} });
    }
    const limit = await countSignUpAttempt(submission.value.email, ip);
    if (!limit.allowed) return tooMany(page, limit.retryAfterSeconds);
    // The issue asks for it: an address with an account signs in and continues (answers kept).
    if (await findUserCredentials(submission.value.email)) {
      return refuse(409, { page, fieldErrors: { email: [EMAIL_HAS_ACCOUNT] }, signIn: true });
    }
    account = { kind: "new", ...submission.value };
    mobileText = submission.value.mobilePhone;
    textVisits = submission.value.textVisits === "on";
  }
  const mobile = mobileText ? toMobileE164(mobileText) : null;
  if (mobileText && !mobile) {
    return refuse(400, { page, fieldErrors: { mobilePhone: ["Enter a mobile number, like 702-555-0123"] } });
  }
  if (textVisits && !mobile) {
    return refuse(400, { page, fieldErrors: { mobilePhone: ["Enter your mobile number to get texts"] } });
  }

  let result;
  try {
    result = await finishSignUp({
      signUpId: current.row.id,
      account,
      mobilePhone: mobile,
      textConsent: textVisits,
      now: new Date(),
    });
  } catch (error) {
    if (error instanceof PasswordQueueBusy) return refuse(503, { page, formErrors: [BUSY_MESSAGE] });
    if (!(error instanceof SignUpError)) throw error;
    log.info("start.refused", { status: error.status, step: error.step });
    if (error.step && error.step !== "account") {
      return refuse(error.status, { page: error.step, formErrors: [error.message] });
    }
    return refuse(error.status, {
      page,
      ...(error.message === EMAIL_HAS_ACCOUNT
        ? { fieldErrors: { email: [error.message] }, signIn: true }
        : { formErrors: [error.message] }),
    });
  }
  log.info("start.finished", { customerId: result.customerId, created: result.created });
  if (result.created) await sendVerificationEmail(result.customerId);
  const headers = result.created ? await createUserSessionHeaders(request, result.customerId) : new Headers();
  headers.append("Set-Cookie", await clearSignUpCookie());
  return redirectWithSuccess(
    "/customer-dashboard",
    {
      message: "Welcome!",
      description: `Your ${result.offer.plan.name} has started. Your first visit is on ${dayLabel(result.offer.firstVisit)}.`,
    },
    { headers },
  );
}
