import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import type { QuoteRequest } from "../../../db/schema";
import { createCustomerSchema, CREATE_CUSTOMER_INTENT, type CreateCustomerDefaults } from "./quote-to-customer-schema";
import { getCatalogue, getQuoteServiceOptions, getSiteSettings } from "~/content/content.server";
import type { PlanRules } from "~/content/types";
import { enqueueSetPasswordEmail } from "~/features/accounts/invite-email.server";
import { wakeOutboxWorker } from "~/features/outbox/outbox.server";
import type { CataloguePlanOption } from "~/features/plans/admin-plan-schema";
import { nextWeekday } from "~/features/plans/admin-plan-page.server";
import { PlanChangeError, startPlan } from "~/features/plans/plan-changes.server";
import { businessToday } from "~/features/visits/visit-dates";
import { insertAccountWithoutPassword, lockAccountByEmail } from "~/models/account.server";
import { getCustomer } from "~/models/customer.server";
import { lockQuoteRequest, markQuoteConverted } from "~/models/quote-request.server";
import { insertYardProfileIfMissing } from "~/models/yard-profile.server";
import { formatBusinessDate } from "~/utils/business-time";
import { getDb } from "~/utils/db.server";
import { log } from "~/utils/logger.server";
import { redirectWithSuccess } from "~/utils/toast.server";

/**
 * A quote request becomes a customer in one step (issue 25 item 6, docs/decisions/096): the
 * account (without a password), its yard's address, the plan (through the plan workflow's
 * `startPlan`, inside the same transaction) and the request marked won and linked to the account,
 * all of it or nothing. A new account's "Set your password" e-mail is queued in the outbox with
 * the rest (its link made when it is sent, decision 110). An address that already has an account gives
 * that account the plan instead.
 */

/** A refusal of the conversion itself (the plan workflow's are PlanChangeError). */
export class QuoteConversionError extends Error {
  constructor(
    message: string,
    readonly status: 404 | 409,
  ) {
    super(message);
    this.name = "QuoteConversionError";
  }
}

export const ALREADY_CONVERTED = "This quote request has already become a customer.";
export const ADMIN_ADDRESS = "That e-mail address belongs to an admin account: use the customer's own address.";

/** "4+" dogs start the plan at 4 (the admin can change it in the form). */
function dogCountOf(dogs: string) {
  return Number.parseInt(dogs, 10) || 1;
}

/** Subscriptions only: a one-time visit cannot be a customer plan. */
async function subscriptionOptions(): Promise<CataloguePlanOption[]> {
  const catalogue = await getCatalogue();
  return catalogue
    .filter((plan) => plan.visitsPerWeek !== null)
    .map((plan) => ({ id: plan._id, name: plan.name, visitsPerWeek: plan.visitsPerWeek }));
}

/** The catalogue plan the quote form's service option points at (Sanity), when it is a subscription. */
async function cataloguePlanFor(service: string, options: readonly CataloguePlanOption[]) {
  const [serviceOptions, catalogue] = await Promise.all([getQuoteServiceOptions(), getCatalogue()]);
  const slug = serviceOptions.find((option) => option.value === service)?.plan?.slug;
  const card = slug ? catalogue.find((plan) => plan.slug === slug) : undefined;
  return card && options.some((option) => option.id === card._id) ? card._id : "";
}

export type QuoteConversionView =
  | { state: "open"; catalogue: CataloguePlanOption[]; defaults: CreateCustomerDefaults }
  | {
      state: "converted";
      existed: boolean;
      when: string;
      customer: { id: string; name: string | null; email: string } | null;
    };

/** What the quote page shows: the pre-filled form, or what the request became. */
export async function loadQuoteConversion(quote: QuoteRequest, now = new Date()): Promise<QuoteConversionView> {
  if (quote.converted_at) {
    const customer = quote.customer_id ? await getCustomer(quote.customer_id) : null;
    return {
      state: "converted",
      existed: quote.customer_existed === true,
      when: formatBusinessDate(quote.converted_at),
      customer: customer ? { id: customer.id, name: customer.full_name, email: customer.email } : null,
    };
  }
  const catalogue = await subscriptionOptions();
  return {
    state: "open",
    catalogue,
    defaults: {
      fullName: quote.name,
      email: quote.email,
      street: quote.address.slice(0, 200),
      city: "",
      zip: /^\d{5}$/.test(quote.zip) ? quote.zip : "",
      cataloguePlanId: await cataloguePlanFor(quote.service, catalogue),
      weekdays: [] as string[],
      dogCount: String(dogCountOf(quote.dogs)),
      yardSize: quote.yard_size,
      startDate: nextWeekday(businessToday(now)),
      notes: quote.message ? quote.message.slice(0, 1000) : "",
    },
  };
}

export type CreateCustomerActionData = {
  intent: typeof CREATE_CUSTOMER_INTENT;
  result?: SubmissionResult<string[]>;
  toast: { type: "error"; message: string; description: string };
};

function refuse(status: number, description: string, result?: SubmissionResult<string[]>) {
  return json<CreateCustomerActionData>(
    { intent: CREATE_CUSTOMER_INTENT, result, toast: { type: "error", message: "Error", description } },
    { status, headers: { "Cache-Control": "private, no-store" } },
  );
}

type ConversionContext = {
  quoteId: string;
  admin: { id: string; name: string | null };
  now?: Date;
  rules?: PlanRules;
};

/**
 * The form's post. The caller has checked that the user is an admin with their second step. A
 * refusal (400 bad input, 404 no such request, 409 converted already or the account has a
 * plan) answers the form with its message and an error toast, and stores nothing; success
 * redirects to the request's page with a toast that says which account got the plan.
 */
export async function handleCreateCustomer(formData: FormData, context: ConversionContext) {
  const now = context.now ?? new Date();
  const catalogue = await subscriptionOptions();
  const submission = parseWithZod(formData, { schema: createCustomerSchema(catalogue) });
  if (submission.status !== "success") return refuse(400, "Please check the form", submission.reply());
  const value = submission.value;
  const plan = catalogue.find((option) => option.id === value.cataloguePlanId)!;
  const settings = await getSiteSettings();
  const fields = { quoteId: context.quoteId, adminId: context.admin.id };

  let outcome: { customerId: string; existed: boolean };
  try {
    outcome = await convertQuote({
      quoteId: context.quoteId,
      fullName: value.fullName,
      email: value.email,
      yard: { street: value.street, city: value.city || null, zip: value.zip, dog_count: value.dogCount },
      plan: {
        cataloguePlan: { _id: plan.id, name: plan.name, visitsPerWeek: plan.visitsPerWeek },
        weekdays: value.weekdays,
        dogCount: value.dogCount,
        yardSize: value.yardSize,
        startDate: value.startDate,
        notes: value.notes || null,
      },
      admin: context.admin,
      businessName: settings.businessName,
      now,
      rules: context.rules,
    });
  } catch (error) {
    if (!(error instanceof PlanChangeError) && !(error instanceof QuoteConversionError)) throw error;
    log.info("quote.conversion_refused", { ...fields, status: error.status });
    return refuse(error.status, error.message, submission.reply({ formErrors: [error.message] }));
  }
  // The invitation was queued with the account; the worker sends it now rather than later.
  if (!outcome.existed) wakeOutboxWorker();
  log.info("quote.converted", { ...fields, customerId: outcome.customerId, existed: outcome.existed });
  return redirectWithSuccess(`/admin-dashboard/quotes/${context.quoteId}`, {
    message: "Success",
    description: outcome.existed
      ? `An account with ${value.email} already existed: the plan was added to it.`
      : `Customer created. A "Set your password" e-mail is on its way to ${value.email}.`,
  });
}

export type ConvertQuoteInput = {
  quoteId: string;
  fullName: string;
  email: string;
  yard: { street: string; city: string | null; zip: string; dog_count: number };
  plan: Omit<Parameters<typeof startPlan>[1], "customerId" | "actorId" | "actorName" | "now" | "rules">;
  admin: { id: string; name: string | null };
  /** For the new account's "Set your password" e-mail. */
  businessName: string;
  now: Date;
  rules?: PlanRules;
};

/**
 * One transaction: the request locked (a second conversion, another admin's double submit,
 * waits and is then refused), the account found or made, its first yard profile and its "Set
 * your password" e-mail queued in the outbox (decision 110), the plan started, the request
 * marked. Answers the account and whether it existed.
 */
export async function convertQuote(input: ConvertQuoteInput) {
  const db = await getDb();
  return db.transaction().execute(async (trx) => {
    const quote = await lockQuoteRequest(trx, input.quoteId);
    if (!quote) throw new QuoteConversionError("Quote request not found", 404);
    if (quote.converted_at) throw new QuoteConversionError(ALREADY_CONVERTED, 409);

    let account = await lockAccountByEmail(trx, input.email);
    let created = false;
    if (!account) {
      const id = await insertAccountWithoutPassword(trx, { email: input.email, fullName: input.fullName });
      // Taken between the look and the insert (a sign-up committed): that account it is.
      if (id) {
        await insertYardProfileIfMissing(trx, id, input.yard);
        // Its link is made when the e-mail is sent; a refusal below rolls the e-mail back too.
        await enqueueSetPasswordEmail(trx, {
          userId: id,
          to: input.email,
          name: input.fullName,
          businessName: input.businessName,
        });
        created = true;
      }
      account = id ? { id, is_staff: false } : await lockAccountByEmail(trx, input.email);
      if (!account) throw new QuoteConversionError("That e-mail address was taken a moment ago: try again.", 409);
    }
    if (account.is_staff) throw new QuoteConversionError(ADMIN_ADDRESS, 409);
    const existed = !created;
    if (existed) await insertYardProfileIfMissing(trx, account.id, input.yard);

    await startPlan(trx, {
      ...input.plan,
      customerId: account.id,
      actorId: input.admin.id,
      actorName: input.admin.name,
      now: input.now,
      rules: input.rules,
    });
    await markQuoteConverted(trx, quote.id, account.id, existed);
    return { customerId: account.id, existed };
  });
}
