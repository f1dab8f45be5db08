// The Stripe stand-in of bench/collection.ts, in a process of its own so that what it keeps (every
// request, every PaymentIntent) is not counted in the collection's RSS: the tests' stand-in
// (tests/helpers/stripe-stand-in.ts) with each answer held back BENCH_STRIPE_LATENCY_MS (20 by
// default), as Stripe's round trip would be. It makes BENCH_CARDS payment methods, declines the
// cards of every BENCH_DECLINE_EVERY-th customer ("cus_bench<n>"), and sends its URL and the
// payment methods' ids to the parent.
import http from "node:http";

const latency = Number(process.env.BENCH_STRIPE_LATENCY_MS ?? 20);
const cards = Number(process.env.BENCH_CARDS ?? 0);
const declineEvery = Number(process.env.BENCH_DECLINE_EVERY ?? 0);

// Every answer leaves `latency` ms after the request has been read: wrap the server's handler's
// `res.end` before the stand-in makes its server.
const createServer = http.createServer.bind(http);
(http as { createServer: unknown }).createServer = (listener: http.RequestListener) =>
  createServer((req, res) => {
    const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
    (res as { end: unknown }).end = (...args: unknown[]) => {
      setTimeout(() => end(...args), latency);
      return res;
    };
    listener(req, res);
  });

const { startStripeStandIn } = await import("../tests/helpers/stripe-stand-in");
const standIn = await startStripeStandIn();
const paymentMethods: string[] = [];
for (let n = 1; n <= cards; n += 1) {
  paymentMethods.push(standIn.addPaymentMethod({ brand: "visa", last4: "4242", expMonth: 4, expYear: 2035 }).id);
  if (declineEvery > 0 && n % declineEvery === 0) standIn.outcomes.set(`cus_bench${n}`, "card_declined");
}
process.send!({ kind: "ready", url: standIn.url, paymentMethods });
process.on("message", async (message: { kind: string }) => {
  if (message.kind !== "stop") return;
  const intents = standIn.paymentIntents.size;
  process.send!({ kind: "stopped", intents, posts: standIn.posts("/v1/payment_intents").length });
  await standIn.close();
  process.disconnect();
});
