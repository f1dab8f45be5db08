import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local HTTP stand-in of Twilio's Messages API (tests only; never shipped). The app's twilio
 * client is pointed at it with TWILIO_API_BASE_URL (app/utils/texts.server.ts): the requests are
 * the package's own, and each one is kept here (path, Basic auth user, form parameters).
 */
export type TwilioRequest = { method: string; path: string; accountSid: string; params: Record<string, string> };
export type TwilioStandIn = {
  url: string;
  requests: TwilioRequest[];
  /** Numbers that replied STOP to "Twilio": a message to one is refused with error 21610, as Twilio does. */
  unsubscribed: Set<string>;
  /** Numbers Twilio refuses as such, with its error code (21211 not a phone number, 21614 not a mobile). */
  refusedNumbers: Map<string, number>;
  /** While set, every message is refused with this HTTP status (an outage: 503). */
  failWith: number | null;
  close(): Promise<void>;
};

export async function startTwilioStandIn(): Promise<TwilioStandIn> {
  const requests: TwilioRequest[] = [];
  const unsubscribed = new Set<string>();
  const refusedNumbers = new Map<string, number>();
  let count = 0;
  const handle = { failWith: null as number | null };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const auth = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      const path = req.url ?? "";
      requests.push({ method: req.method ?? "", path, accountSid: auth.split(":")[0] ?? "", params });
      const match = /^\/2010-04-01\/Accounts\/(AC[0-9a-f]{32})\/Messages\.json$/.exec(path);
      if (req.method !== "POST" || !match) {
        res.writeHead(404, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ code: 20404, message: "The requested resource was not found", status: 404 }));
        return;
      }
      if (handle.failWith) {
        res.writeHead(handle.failWith, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ code: 20500, message: "Internal Server Error", status: handle.failWith }));
        return;
      }
      if (unsubscribed.has(params.To ?? "")) {
        // Twilio's answer for a number that opted out (https://www.twilio.com/docs/api/errors/21610).
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            code: 21610,
            message: "Attempt to send to unsubscribed recipient",
            more_info: "https://www.twilio.com/docs/errors/21610",
            status: 400,
          }),
        );
        return;
      }
      const refusal = refusedNumbers.get(params.To ?? "");
      if (refusal) {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            code: refusal,
            message: refusal === 21614 ? "'To' number is not a valid mobile number" : "Invalid 'To' Phone Number",
            more_info: `https://www.twilio.com/docs/errors/${refusal}`,
            status: 400,
          }),
        );
        return;
      }
      count += 1;
      const sid = `SM${count.toString(16).padStart(32, "0")}`;
      res.writeHead(201, { "Content-Type": "application/json" });
      res.end(
        JSON.stringify({
          sid,
          account_sid: match[1],
          to: params.To,
          from: params.From ?? null,
          messaging_service_sid: params.MessagingServiceSid ?? null,
          body: params.Body,
          status: "queued",
          num_segments: "1",
          direction: "outbound-api",
          api_version: "2010-04-01",
          date_created: new Date().toUTCString(),
          uri: `/2010-04-01/Accounts/${match[1]}/Messages/${sid}.json`,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unsubscribed,
    refusedNumbers,
    get failWith() {
      return handle.failWith;
    },
    set failWith(status: number | null) {
      handle.failWith = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
