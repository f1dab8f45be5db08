import { offerFor, loadSignUpContent, type SignUpOffer } from "./sign-up-offer.server";
import { signUpAnswersSchema, type SignUpStep } from "./sign-up-schema";
import { signUpEmails } from "./sign-up-emails.server";
import { hashPassword } from "~/features/accounts/password.server";
import { planMonthLine } from "~/features/billing/billing-run.server";
import { enqueueEmail } from "~/features/outbox/outbox.server";
import { PlanChangeError, startPlan, syncPlanVisits } from "~/features/plans/plan-changes.server";
import { businessToday, startOfBusinessDay } from "~/features/visits/visit-dates";
import { insertAccount, lockAccountByEmail } from "~/models/account.server";
import { insertInvoices, type DraftLine } from "~/models/invoice-run.server";
import { lockSignUp, markSignUpFinished } from "~/models/sign-up.server";
import { insertYardProfileIfMissing } from "~/models/yard-profile.server";
import { formatBusinessDate } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { getEnv } from "~/utils/env.server";

/**
 * The last step of /start (docs/decisions/129), in one transaction: the sign-up locked (a double
 * submit waits, then finds it finished), every answer priced again from Sanity, the account made
 * (or the signed-in customer's used), the yard profile, the plan started with its price locked
 * (decision 116) and its first visits, today's invoice (the initial clean and the first month as
 * the billing run bills it, so the run finds the month invoiced and leaves it), the welcome and
 * "New customer" e-mails queued, the sign-up marked finished. A refusal stores nothing, so a
 * half-finished sign-up never shows in the admin's lists.
 */

export const EMAIL_HAS_ACCOUNT =
  "An account with this e-mail address already exists. Sign in to continue: your answers are kept.";
export const SIGN_UP_GONE = "This sign-up has expired or is finished. Please start again.";
export const STAFF_ACCOUNT = "Staff accounts cannot sign up for a plan. Sign in with a customer account.";
export const HAS_PLAN = "Your account already has a plan: change it on Your Plan.";

export class SignUpError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 | 409,
    /** The step to send the visitor back to, when an answer no longer holds. */
    readonly step: SignUpStep | null = null,
  ) {
    super(message);
    this.name = "SignUpError";
  }
}

export type AccountChoice =
  | { kind: "new"; fullName: string; email: string; password: string }
  | { kind: "signed-in"; userId: string; fullName: string; email: string; isStaff: boolean };

export type FinishInput = {
  signUpId: string;
  account: AccountChoice;
  /** E.164, already checked; consent only with a number. */
  mobilePhone: string | null;
  textConsent: boolean;
  now: Date;
};

export type FinishResult = {
  customerId: string;
  created: boolean;
  planId: string;
  invoiceId: string | null;
  offer: SignUpOffer;
};

export async function finishSignUp(input: FinishInput): Promise<FinishResult> {
  const content = await loadSignUpContent();
  if (!content) throw new SignUpError(SIGN_UP_GONE, 404);
  if (input.account.kind === "signed-in" && input.account.isStaff) throw new SignUpError(STAFF_ACCOUNT, 409);
  // Hashed before the transaction: scrypt takes a while and holds no lock.
  const passwordHash = input.account.kind === "new" ? await hashPassword(input.account.password) : null;
  const { settings } = content;
  const today = businessToday(input.now);
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const row = await lockSignUp(trx, input.signUpId);
    if (!row || row.finished_at || row.expires_at <= input.now) throw new SignUpError(SIGN_UP_GONE, 404);
    const answers = signUpAnswersSchema.parse(row.answers);
    const priced = await offerFor(trx, content, answers, input.now);
    if (!priced.ok) throw new SignUpError(priced.message, 409, priced.step);
    const { offer } = priced;

    let customerId: string;
    const created = input.account.kind === "new";
    if (input.account.kind === "new") {
      const id = await insertAccount(trx, {
        email: input.account.email,
        fullName: input.account.fullName,
        passwordHash,
      });
      if (!id) throw new SignUpError(EMAIL_HAS_ACCOUNT, 409, "account");
      customerId = id;
    } else {
      const account = await lockAccountByEmail(trx, input.account.email);
      if (!account || account.id !== input.account.userId) throw new SignUpError(SIGN_UP_GONE, 404);
      if (account.is_staff) throw new SignUpError(STAFF_ACCOUNT, 409);
      customerId = account.id;
    }
    await insertYardProfileIfMissing(trx, customerId, {
      street: answers.street ?? null,
      city: answers.city || null,
      zip: answers.zip ?? null,
      gate_code: answers.gateCode || null,
      hazards: answers.hazards || null,
      dog_count: answers.dogCount ?? 1,
      mobile_phone: input.mobilePhone,
      text_consent_at: input.textConsent && input.mobilePhone ? input.now : null,
    });

    let plan;
    try {
      plan = await startPlan(trx, {
        customerId,
        cataloguePlan: { _id: offer.plan.id, name: offer.plan.name, visitsPerWeek: offer.plan.visitsPerWeek },
        weekdays: offer.weekdays,
        dogCount: answers.dogCount!,
        yardSize: answers.yardSize!,
        startDate: offer.firstVisit,
        notes: null,
        actorId: customerId,
        actorName: input.account.fullName,
        now: input.now,
        rules: settings.planRules,
        notify: false,
      });
    } catch (error) {
      if (error instanceof PlanChangeError && error.status === 409) throw new SignUpError(HAS_PLAN, 409);
      if (error instanceof PlanChangeError) throw new SignUpError(error.message, 400, "days");
      throw error;
    }
    // The plan locked the catalogue's price of this instant; the quote read the same catalogue.
    if ((plan.price_cents ?? 0) + (plan.add_on_cents ?? 0) !== offer.quote.monthlyCents) {
      throw new SignUpError("Our prices have just changed. Please check your summary again.", 409, "summary");
    }
    // A same-day first visit starts before now (the first visit time has passed): it is still
    // today's, on today's route.
    if (offer.firstVisit === today) {
      await syncPlanVisits(trx, plan, settings.planRules, {
        now: input.now,
        notBefore: startOfBusinessDay(today)!,
        actorId: customerId,
      });
    }

    const lines: DraftLine[] = [];
    if (offer.quote.initialCleanCents > 0) {
      lines.push({
        kind: "initial_clean",
        description: `Initial clean (yard last cleaned: ${offer.quote.initialCleanLabel.toLowerCase()})`,
        visitId: null,
        amountCents: offer.quote.initialCleanCents,
      });
    }
    lines.push(planMonthLine(plan, offer.quote.firstPeriod, offer.quote.firstMonth));
    const [invoice] = await insertInvoices(
      trx,
      [{ customerId, planId: plan.id, period: offer.quote.firstPeriod, lines }],
      {
        period: offer.quote.firstPeriod,
        issuedOn: today,
        // "Pay at your first visit".
        dueOn: offer.firstVisit,
        footer: settings.billingRules.invoiceFooter || null,
        issuedAt: input.now,
      },
    );

    const emails = signUpEmails(
      {
        customerId,
        name: input.account.fullName,
        email: input.account.email,
        planName: offer.plan.name,
        weekdays: offer.weekdays,
        firstVisitLabel: formatBusinessDate(startOfBusinessDay(offer.firstVisit)!),
        hasGateCode: Boolean(answers.gateCode),
        todayCents: offer.quote.todayCents,
        monthlyCents: offer.quote.monthlyCents,
        invoiceNumber: invoice?.number ?? null,
      },
      {
        businessName: settings.businessName,
        phone: settings.phone,
        ownerEmail: settings.email,
        siteUrl: getEnv().SITE_URL,
        changeNoticeHours: settings.planRules.changeNoticeHours,
      },
    );
    for (const email of emails) await enqueueEmail(trx, { ...email, relatedId: plan.id });
    await markSignUpFinished(trx, row.id, customerId, input.now);
    return { customerId, created, planId: plan.id, invoiceId: invoice?.id ?? null, offer };
  });
}
