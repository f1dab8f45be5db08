import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import pLimit from "p-limit";

// scrypt is memory-hard: N=2^15, r=8 uses 32 MiB per hash (OWASP's minimum is 2^17 with r=8
// and p=1 or equivalent cost; 2^15 keeps sign-in under ~100 ms on a shared 2-core machine).
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;

// Each hash holds 32 MiB while it runs, and libuv would run four at once (128 MiB): on a 256 MB
// machine a burst of sign-ins must queue instead (docs/decisions/062-memory-on-a-256-mb-machine.md).
// One at a time: the Fly machine has one shared CPU, so a second hash would only halve the
// speed of the first; the queue holds only small closures.
export const SCRYPT_CONCURRENCY = 1;
/** The largest memory one hash may use: refuse stored parameters that would ask for more. */
const MAX_SCRYPT_MEMORY = 64 * 1024 * 1024;
const limit = pLimit(SCRYPT_CONCURRENCY);

/** scrypt's working memory for these parameters, in bytes. */
export const scryptMemory = (N: number, r: number) => 128 * N * r;

/** Hashes currently running and waiting (tests and benches look at these). */
export const scryptLoad = () => ({ running: limit.activeCount, waiting: limit.pendingCount });

// How long one hash takes here and now (a moving average): ~100 ms on a quiet core, several
// times that on a busy shared one.
let averageHashMs = 100;

/**
 * A burst of sign-ins queues here one hash at a time. Past a few seconds of waiting the visitor
 * is better told "busy, try again" (429 + Retry-After) than held past any client's timeout
 * (docs/decisions/055-bounded-password-queue.md): a hash is refused when the queue already looks
 * longer than this, and dropped when it has waited this long for its turn.
 */
export const PASSWORD_QUEUE_MAX_WAIT_MS = 5_000;

export class PasswordQueueBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("Password checks are queued beyond their wait limit");
    this.name = "PasswordQueueBusy";
  }
}

/** About how long a hash asked for now would wait for its turn and run. */
export function passwordHashWaitMs(): number {
  return (limit.activeCount + limit.pendingCount + 1) * averageHashMs;
}

/** Tests set the average hash time to make the queue look long or short. */
export function setAverageHashMsForTests(ms: number) {
  averageHashMs = ms;
}

const busy = (waitMs: number) => new PasswordQueueBusy(Math.max(1, Math.ceil(waitMs / 1000)));

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions) {
  const expectedWait = passwordHashWaitMs();
  if (expectedWait > PASSWORD_QUEUE_MAX_WAIT_MS) return Promise.reject(busy(expectedWait - PASSWORD_QUEUE_MAX_WAIT_MS));
  const queuedAt = performance.now();
  return limit(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        // The estimate was too kind (a burst arrived before the average caught up): give up
        // the turn rather than answer after the visitor has gone.
        if (performance.now() - queuedAt > PASSWORD_QUEUE_MAX_WAIT_MS) return reject(busy(passwordHashWaitMs()));
        const started = performance.now();
        scryptCallback(password.normalize("NFKC"), salt, keylen, options, (err, key) => {
          averageHashMs = 0.8 * averageHashMs + 0.2 * (performance.now() - started);
          return err ? reject(err) : resolve(key);
        });
      }),
  );
}

/** Returns "scrypt$N$r$p$salt$hash" (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: 128 * PARAMS.N * PARAMS.r * 2 });
  return ["scrypt", PARAMS.N, PARAMS.r, PARAMS.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, saltText, hashText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !hashText) return false;
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every(Number.isSafeInteger)) return false;
  if (scryptMemory(N, R) * P > MAX_SCRYPT_MEMORY) return false;
  const expected = Buffer.from(hashText, "base64url");
  const actual = await scrypt(password, Buffer.from(saltText, "base64url"), expected.length, {
    N,
    r: R,
    p: P,
    maxmem: 128 * N * R * 2,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to compare against when the e-mail is unknown, so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function getDummyHash() {
  dummyHash ??= hashPassword(randomBytes(12).toString("hex")).catch((error) => {
    dummyHash = undefined; // a busy queue refused it: the next sign-in makes it
    throw error;
  });
  return dummyHash;
}
