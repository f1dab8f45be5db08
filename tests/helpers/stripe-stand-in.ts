import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP stand-in of the parts of Stripe's API the app uses (tests only; never shipped).
 * The app's stripe client is pointed at it with STRIPE_API_BASE_URL (its host/port/protocol
 * options, app/utils/stripe.server.ts): the requests are the package's own, and each one is kept
 * here (method, path, parsed form body or query, Idempotency-Key). Like Stripe, a POST repeated
 * with the same Idempotency-Key gets the first answer again and changes nothing, and one with
 * the same key but other parameters is refused with a 400 `idempotency_error`.
 *
 * Customers, Checkout sessions (create, retrieve, expire; completed by the test with completeSetupSession
 * or completePaymentSession, as a customer would on Stripe's page), PaymentIntents (create with
 * confirm, retrieve; the outcome per payment method or customer: succeeded, processing or a
 * card_declined 402 carrying the PaymentIntent), SetupIntents and PaymentMethods (retrieve),
 * refunds (create, list) and refunds made "in the Dashboard" (refundInDashboard), and disputes
 * (retrieve; opened by the test with openDispute, then closed by setting their status).
 */
export type StripeRequest = {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | null;
  authorization: string;
};
export type ChargeOutcomeSetting = "succeeded" | "processing" | "card_declined" | "insufficient_funds";
type Obj = Record<string, any>;

export type StripeStandIn = {
  url: string;
  requests: StripeRequest[];
  /** The requests the app made on purpose (without the package's own retry keys). */
  posts(path: string): StripeRequest[];
  customers: Map<string, Obj>;
  sessions: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  refunds: Map<string, Obj>;
  /** Disputes by id: a test closes one by setting its `status` ("lost", "won", "warning_closed"). */
  disputes: Map<string, Obj>;
  /** A dispute of a PaymentIntent's charge, as the customer's bank opens it (`needs_response`). */
  openDispute(paymentIntentId: string, options?: { amount?: number; reason?: string; fee?: number }): Obj;
  /** The outcome of a PaymentIntent for this payment method or customer id (default: succeeded). */
  outcomes: Map<string, ChargeOutcomeSetting>;
  addPaymentMethod(card: { brand: string; last4: string; expMonth: number; expYear: number }): Obj;
  completeSetupSession(sessionId: string, paymentMethodId: string): { session: Obj; setupIntent: Obj };
  completePaymentSession(sessionId: string, paymentMethodId?: string): { session: Obj; paymentIntent: Obj };
  /** A refund made in Stripe's Dashboard (no request from the app); returns it and its charge. */
  refundInDashboard(paymentIntentId: string, amount: number): { refund: Obj; charge: Obj };
  chargeOf(paymentIntentId: string): Obj;
  /** An event as Stripe would send it (the test signs it with generateTestHeaderString). */
  event(type: string, object: Obj, extra?: Obj): Obj;
  reset(): void;
  close(): Promise<void>;
};

const DECLINES: Record<string, { message: string; decline_code: string }> = {
  card_declined: { message: "Your card was declined.", decline_code: "generic_decline" },
  insufficient_funds: { message: "Your card has insufficient funds.", decline_code: "insufficient_funds" },
};

/** Form keys as the package sends them ("metadata[invoice_id]") into nested objects. */
function nest(flat: Record<string, string>): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.replace(/\]/g, "").split("[");
    let at: Obj = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) at[part] = value;
      else at = at[part] ??= {};
    });
  }
  return out;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeRequest[] = [];
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const paymentIntents = new Map<string, Obj>();
  const setupIntents = new Map<string, Obj>();
  const paymentMethods = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const disputes = new Map<string, Obj>();
  const outcomes = new Map<string, ChargeOutcomeSetting>();
  const replies = new Map<string, { status: number; params: string; body: string }>();
  let counter = 0;
  const next = (prefix: string) => `${prefix}_test${(++counter).toString(36).padStart(12, "0")}`;
  const now = () => Math.floor(Date.now() / 1000);
  let url = "";

  const addPaymentMethod: StripeStandIn["addPaymentMethod"] = (card) => {
    const pm = {
      id: next("pm"),
      object: "payment_method",
      type: "card",
      customer: null,
      card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
      created: now(),
      livemode: false,
      metadata: {},
    };
    paymentMethods.set(pm.id, pm);
    return pm;
  };

  const chargeIdOf = (pi: Obj) => pi.latest_charge as string;
  const chargeOf = (paymentIntentId: string) => {
    const pi = paymentIntents.get(paymentIntentId);
    if (!pi) throw new Error(`no PaymentIntent ${paymentIntentId}`);
    const amountRefunded = [...refunds.values()]
      .filter((r) => r.payment_intent === pi.id && r.status === "succeeded")
      .reduce((sum, r) => sum + r.amount, 0);
    return {
      id: chargeIdOf(pi),
      object: "charge",
      amount: pi.amount,
      amount_captured: pi.status === "succeeded" ? pi.amount : 0,
      amount_refunded: amountRefunded,
      refunded: amountRefunded >= pi.amount,
      currency: pi.currency,
      customer: pi.customer,
      payment_intent: pi.id,
      payment_method: pi.payment_method,
      metadata: pi.metadata,
      status: pi.status === "succeeded" ? "succeeded" : "failed",
      paid: pi.status === "succeeded",
      created: pi.created,
      livemode: false,
    };
  };

  const makeIntent = (params: Obj): { status: number; body: Obj } => {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) return invalid("amount", "Invalid integer");
    const pmId = params.payment_method ?? null;
    if (pmId && !paymentMethods.has(pmId)) return invalid("payment_method", `No such PaymentMethod: '${pmId}'`);
    const outcome = (pmId && outcomes.get(pmId)) || outcomes.get(params.customer) || "succeeded";
    const pi: Obj = {
      id: next("pi"),
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: params.currency ?? "usd",
      customer: params.customer ?? null,
      payment_method: pmId,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      status: "requires_payment_method",
      last_payment_error: null,
      latest_charge: next("ch"),
      created: now(),
      livemode: false,
    };
    paymentIntents.set(pi.id, pi);
    if (params.confirm !== "true") return { status: 200, body: pi };
    const decline = DECLINES[outcome];
    if (decline) {
      pi.last_payment_error = { type: "card_error", code: "card_declined", ...decline, payment_method: pmId };
      const error = {
        type: "card_error",
        code: "card_declined",
        ...decline,
        charge: pi.latest_charge,
        payment_intent: pi,
        request_log_url: `${url}/logs`,
      };
      return { status: 402, body: { error } };
    }
    pi.status = outcome;
    if (outcome === "succeeded") pi.amount_received = amount;
    return { status: 200, body: pi };
  };

  const invalid = (param: string, message: string, status = 400) => ({
    status,
    body: { error: { type: "invalid_request_error", param, message } },
  });
  const missing = (kind: string, id: string) => ({
    status: 404,
    body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${id}'` } },
  });

  function route(method: string, path: string, params: Obj): { status: number; body: Obj } {
    let m: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/customers") {
      const customer = {
        id: next("cus"),
        object: "customer",
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        invoice_settings: { default_payment_method: null },
        created: now(),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if ((m = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(m[1]);
      if (!customer) return missing("customer", m[1]);
      if (method === "POST") {
        const pm = params.invoice_settings?.default_payment_method;
        if (pm !== undefined) customer.invoice_settings.default_payment_method = pm || null;
        Object.assign(customer.metadata, params.metadata ?? {});
      }
      return { status: 200, body: customer };
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      if (!["setup", "payment"].includes(params.mode)) return invalid("mode", "Invalid mode");
      if (!params.success_url) return invalid("success_url", "Missing required param: success_url.");
      const line = params.line_items?.["0"];
      const amount = line ? Number(line.price_data?.unit_amount) * Number(line.quantity ?? 1) : null;
      const id = next("cs");
      const session = {
        id,
        object: "checkout.session",
        mode: params.mode,
        status: "open",
        payment_status: params.mode === "setup" ? "no_payment_required" : "unpaid",
        url: `${url}/checkout/${id}`,
        customer: params.customer ?? null,
        client_reference_id: params.client_reference_id ?? null,
        metadata: params.metadata ?? {},
        amount_total: amount,
        currency: params.mode === "payment" ? (line?.price_data?.currency ?? "usd") : (params.currency ?? null),
        success_url: params.success_url.replace("{CHECKOUT_SESSION_ID}", id),
        cancel_url: params.cancel_url ?? null,
        setup_intent: null,
        payment_intent: null,
        created: now(),
        livemode: false,
        _payment_intent_data: params.payment_intent_data ?? {},
        _setup_intent_data: params.setup_intent_data ?? {},
      };
      sessions.set(id, session);
      return { status: 200, body: publicSession(session) };
    }
    if (method === "GET" && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const session = sessions.get(m[1]);
      return session ? { status: 200, body: publicSession(session) } : missing("checkout.session", m[1]);
    }
    if (method === "POST" && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path))) {
      const session = sessions.get(m[1]);
      if (!session) return missing("checkout.session", m[1]);
      // As Stripe: only an open session can be expired; one paid or expired already is refused.
      if (session.status !== "open") {
        return invalid("session", `Only Checkout Sessions with a status in ["open"] can be expired.`);
      }
      Object.assign(session, { status: "expired", url: null });
      return { status: 200, body: publicSession(session) };
    }
    if (method === "POST" && path === "/v1/payment_intents") return makeIntent(params);
    if (method === "GET" && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const pi = paymentIntents.get(m[1]);
      return pi ? { status: 200, body: pi } : missing("payment_intent", m[1]);
    }
    if (method === "GET" && (m = /^\/v1\/setup_intents\/([^/]+)$/.exec(path))) {
      const si = setupIntents.get(m[1]);
      return si ? { status: 200, body: si } : missing("setup_intent", m[1]);
    }
    if (method === "GET" && (m = /^\/v1\/payment_methods\/([^/]+)$/.exec(path))) {
      const pm = paymentMethods.get(m[1]);
      return pm ? { status: 200, body: pm } : missing("payment_method", m[1]);
    }
    if (method === "GET" && (m = /^\/v1\/disputes\/([^/]+)$/.exec(path))) {
      const dispute = disputes.get(m[1]);
      return dispute ? { status: 200, body: dispute } : missing("dispute", m[1]);
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = paymentIntents.get(params.payment_intent ?? "");
      if (!pi) return missing("payment_intent", params.payment_intent ?? "");
      if (pi.status !== "succeeded") return invalid("payment_intent", "This PaymentIntent has not succeeded.");
      const left = pi.amount - chargeOf(pi.id).amount_refunded;
      const amount = params.amount === undefined ? left : Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1 || amount > left) {
        return invalid("amount", `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`);
      }
      return { status: 200, body: addRefund(pi, amount, params.metadata ?? {}) };
    }
    if (method === "GET" && path === "/v1/refunds") {
      const data = [...refunds.values()].filter(
        (r) =>
          (!params.payment_intent || r.payment_intent === params.payment_intent) &&
          (!params.charge || r.charge === params.charge),
      );
      return { status: 200, body: { object: "list", data: data.reverse(), has_more: false, url: "/v1/refunds" } };
    }
    return missing("route", `${method} ${path}`);
  }

  const addRefund = (pi: Obj, amount: number, metadata: Obj) => {
    const refund = {
      id: next("re"),
      object: "refund",
      amount,
      currency: pi.currency,
      payment_intent: pi.id,
      charge: chargeIdOf(pi),
      status: "succeeded",
      metadata,
      created: now(),
    };
    refunds.set(refund.id, refund);
    return refund;
  };

  const publicSession = (session: Obj) =>
    Object.fromEntries(Object.entries(session).filter(([key]) => !key.startsWith("_")));

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const target = new URL(req.url ?? "/", "http://stand-in");
      const method = req.method ?? "GET";
      const flat = Object.fromEntries(
        method === "GET" ? target.searchParams : new URLSearchParams(Buffer.concat(chunks).toString("utf8")),
      );
      const page = /^\/checkout\/(cs_[0-9a-z_]+)$/.exec(target.pathname);
      if (method === "GET" && page) {
        // Stripe's hosted page, as far as a browser test goes: where "Add a card" and "Pay now" land.
        const session = sessions.get(page[1]);
        res.writeHead(session ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          `<!doctype html><html lang="en"><title>Checkout stand-in</title><main><h1>Checkout stand-in</h1>` +
            `<p>${session ? `Session ${session.id} (${session.mode})` : "No such session"}</p></main></html>`,
        );
        return;
      }
      const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({
        method,
        path: target.pathname,
        params: flat,
        idempotencyKey: key,
        authorization: req.headers.authorization ?? "",
      });
      const replyKey = key && method === "POST" ? `${target.pathname}|${key}` : null;
      const params = JSON.stringify(Object.entries(flat).sort(([a], [b]) => a.localeCompare(b)));
      const earlier = replyKey ? replies.get(replyKey) : undefined;
      // Like Stripe: the same key with other parameters is refused (400 idempotency_error), not replayed.
      const conflict = earlier !== undefined && earlier.params !== params;
      const replay = earlier && !conflict ? earlier : undefined;
      const answer =
        replay ??
        (conflict
          ? {
              status: 400,
              params,
              body: JSON.stringify({
                error: {
                  type: "idempotency_error",
                  message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
                },
              }),
            }
          : (() => {
              const { status, body } = route(method, target.pathname, nest(flat));
              return { status, params, body: JSON.stringify(body) };
            })());
      if (replyKey && !earlier) replies.set(replyKey, answer);
      res.writeHead(answer.status, {
        "Content-Type": "application/json",
        "Request-Id": `req_${counter}`,
        ...(replay ? { "Idempotent-Replayed": "true" } : {}),
        ...(key ? { "Idempotency-Key": key } : {}),
      });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    requests,
    posts: (path) => requests.filter((r) => r.method === "POST" && r.path === path),
    customers,
    sessions,
    paymentIntents,
    refunds,
    outcomes,
    addPaymentMethod,
    completeSetupSession(sessionId, paymentMethodId) {
      const session = sessions.get(sessionId);
      const pm = paymentMethods.get(paymentMethodId);
      if (!session || !pm) throw new Error("no such session or payment method");
      pm.customer = session.customer;
      const setupIntent = {
        id: next("seti"),
        object: "setup_intent",
        status: "succeeded",
        customer: session.customer,
        payment_method: pm.id,
        usage: "off_session",
        metadata: session._setup_intent_data.metadata ?? {},
        created: now(),
        livemode: false,
      };
      setupIntents.set(setupIntent.id, setupIntent);
      Object.assign(session, { status: "complete", setup_intent: setupIntent.id });
      return { session: publicSession(session), setupIntent };
    },
    completePaymentSession(sessionId, paymentMethodId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error("no such session");
      // Stripe's page of an expired (or paid) session takes no payment.
      if (session.status !== "open") throw new Error(`session ${sessionId} is ${session.status}`);
      const made = makeIntent({
        amount: String(session.amount_total),
        currency: session.currency,
        customer: session.customer,
        payment_method:
          paymentMethodId ?? addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2030 }).id,
        metadata: session._payment_intent_data.metadata ?? {},
        confirm: "true",
      });
      const paymentIntent = made.status === 200 ? made.body : made.body.error.payment_intent;
      Object.assign(session, {
        status: made.status === 200 ? "complete" : "open",
        payment_status: paymentIntent.status === "succeeded" ? "paid" : "unpaid",
        payment_intent: paymentIntent.id,
      });
      return { session: publicSession(session), paymentIntent };
    },
    refundInDashboard(paymentIntentId, amount) {
      const pi = paymentIntents.get(paymentIntentId);
      if (!pi) throw new Error("no such PaymentIntent");
      const refund = addRefund(pi, amount, {});
      return { refund, charge: chargeOf(pi.id) };
    },
    disputes,
    openDispute(paymentIntentId, options = {}) {
      const pi = paymentIntents.get(paymentIntentId);
      if (!pi) throw new Error("no such PaymentIntent");
      const dispute = {
        id: next("du"),
        object: "dispute",
        amount: options.amount ?? pi.amount,
        currency: pi.currency,
        charge: chargeIdOf(pi),
        payment_intent: pi.id,
        reason: options.reason ?? "fraudulent",
        status: "needs_response",
        // The funds withdrawn from the balance, with Stripe's dispute fee ($15.00 unless told);
        // a test that wins it with the fee given back pushes the reinstatement (fee < 0).
        balance_transactions: [
          {
            id: next("txn"),
            object: "balance_transaction",
            amount: -(options.amount ?? pi.amount),
            fee: options.fee ?? 1500,
            type: "adjustment",
            reporting_category: "dispute",
          },
        ] as Obj[],
        created: now(),
        livemode: false,
      };
      disputes.set(dispute.id, dispute);
      return dispute;
    },
    chargeOf,
    event(type, object, extra = {}) {
      return {
        id: next("evt"),
        object: "event",
        api_version: "2025-01-01",
        created: now(),
        type,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        ...extra,
      };
    },
    reset() {
      for (const map of [
        customers,
        sessions,
        paymentIntents,
        setupIntents,
        paymentMethods,
        refunds,
        disputes,
        outcomes,
        replies,
      ]) {
        map.clear();
      }
      requests.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
