// A local SMTP sink for bench/outbox-throughput.ts, in its own process (as a provider's server is
// elsewhere, it must not share the sending process's event loop): plain SMTP on loopback, every
// message read to its end and dropped, its answer held for the set delay (a provider's round trip
// and queueing). Prints "ready <port>"; on stdin, "delay <ms>" sets the delay and any other line
// prints "<messages> <connections>"; exits when stdin closes.
import { createInterface } from "node:readline";
import { SMTPServer } from "smtp-server";

let messages = 0;
let connections = 0;
let delayMs = 0;
const server = new SMTPServer({
  secure: false,
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  closeTimeout: 100,
  onConnect(_session, callback) {
    connections += 1;
    callback();
  },
  onData(stream, _session, callback) {
    stream.on("end", () => {
      messages += 1;
      if (delayMs > 0) setTimeout(callback, delayMs);
      else callback();
    });
    stream.resume();
  },
});
server.listen(0, "127.0.0.1", () => console.log(`ready ${server.server.address().port}`));
createInterface({ input: process.stdin }).on("line", (line) => {
  const delay = /^delay (\d+)$/.exec(line);
  if (delay) delayMs = Number(delay[1]);
  console.log(`${messages} ${connections}`);
});
process.stdin.on("end", () => server.close(() => process.exit(0)));
