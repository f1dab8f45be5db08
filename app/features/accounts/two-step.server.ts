import { randomBytes } from "node:crypto";
import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { createCookie, type Session } from "@remix-run/node";
import QRCode from "qrcode";
import { createToken, hashToken } from "./account-tokens.server";
import { deleteSessionsOfUser } from "~/models/account.server";
import { hitRateLimit, refundRateLimit } from "~/models/rate-limit.server";
import {
  claimChallengeAttempt,
  claimRecoveryCode,
  claimTotpStep,
  deleteSignInChallenge,
  deleteSignInChallengesOf,
  deleteTotp,
  enableTotp,
  findSignInChallenge,
  findTotp,
  insertSignInChallenge,
} from "~/models/two-step.server";
import { getEnv } from "~/utils/env.server";

// RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps.
const TOTP = { algorithm: "SHA-1", digits: 6, period: 30 } as const;
/** One step of clock drift either way. */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** Codes one challenge (one right password) may try before the password is asked again. */
export const MAX_WRONG_CODES = 5;
/**
 * Wrong codes per account, across every challenge and the "Turn off" form: a stolen password
 * meets at most this many guesses per window (decision 024). A fixed window, so nobody is
 * kept out longer than it.
 */
export const SECOND_STEP_LIMIT = { limit: 10, windowMs: 15 * 60_000 } as const;
const CHALLENGE_TTL_SECONDS = 10 * 60;

const currentStep = () => Math.floor(Date.now() / 1000 / TOTP.period);

export async function isTwoStepEnabled(userId: string): Promise<boolean> {
  return Boolean((await findTotp(userId))?.enabledAt);
}

export type Enrolment = { secret: string; otpauthUri: string; qrCodeDataUrl: string };

/**
 * A new setup key, made when the person presses "Set up two-step" (a POST). The caller keeps
 * it in that person's session only: another session (another browser, someone who saw the
 * page) never sees it, and each press replaces it.
 */
export async function newSetupKey(): Promise<string> {
  return (await generateTOTP(TOTP)).secret;
}

// The setup key waiting for its first code lives in the session that asked for it, nowhere else.
const SETUP_KEY_FIELD = "twoStepSetupKey";

export function setupKeyOf(session: Session): string | null {
  const value = session.get(SETUP_KEY_FIELD);
  return typeof value === "string" && /^[A-Z2-7]{16,64}$/.test(value) ? value : null;
}

export function setSetupKey(session: Session, secret: string | null) {
  if (secret) session.set(SETUP_KEY_FIELD, secret);
  else session.unset(SETUP_KEY_FIELD);
}

/** A setup key as the authenticator app reads it: a QR code and the key as text. Writes nothing. */
export async function describeSetupKey(user: { email: string }, secret: string): Promise<Enrolment> {
  const issuer = new URL(getEnv().SITE_URL).hostname;
  const otpauthUri = getTOTPAuthUri({ ...TOTP, secret, accountName: user.email, issuer });
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: "M", margin: 2, width: 220 });
  return { secret, otpauthUri, qrCodeDataUrl };
}

/** Checks a TOTP code against a secret and claims its step, so that it works once. */
async function redeemTotpCode(userId: string, secret: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const result = await verifyTOTP({ ...TOTP, otp: code, secret, window: DRIFT_STEPS });
  if (!result) return false;
  return claimTotpStep(userId, currentStep() + result.delta);
}

const normalizeCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

export type EnrolmentResult = { recoveryCodes: string[]; enabledAt: Date };

/**
 * Turns two-step on when `code` is right for `secret` (this session's setup key). Every other
 * session and pending second step of the account ends: none of them passed a second step.
 * Returns the recovery codes, in clear this once (only their hashes are kept), and when it was
 * turned on; null when the code is wrong (or two-step is on already).
 */
export async function completeEnrolment(
  userId: string,
  secret: string,
  code: string,
  keepSessionId: string | null,
): Promise<EnrolmentResult | null> {
  const otp = normalizeCode(code);
  if (!/^\d{6}$/.test(otp)) return null;
  const result = await verifyTOTP({ ...TOTP, otp, secret, window: DRIFT_STEPS });
  if (!result) return null;
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomBytes(5).toString("hex"); // 40 bits each, single use
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const enabledAt = await enableTotp({
    userId,
    secret,
    usedStep: currentStep() + result.delta,
    recoveryCodeHashes: recoveryCodes.map((c) => hashToken(normalizeCode(c))),
  });
  if (!enabledAt) return null;
  await endOtherSessions(userId, keepSessionId);
  return { recoveryCodes, enabledAt };
}

async function endOtherSessions(userId: string, keepSessionId: string | null) {
  await deleteSessionsOfUser(userId, keepSessionId);
  await deleteSignInChallengesOf(userId);
}

/** A current TOTP code or an unused recovery code of an account with two-step on; each works once. */
export async function verifySecondStep(userId: string, input: string): Promise<boolean> {
  const row = await findTotp(userId);
  if (!row?.enabledAt) return false;
  const code = normalizeCode(input);
  if (/^\d{6}$/.test(code)) return redeemTotpCode(userId, row.secret, code);
  if (/^[0-9a-f]{10}$/.test(code)) return claimRecoveryCode(userId, hashToken(code));
  return false;
}

export type CountedCheck = { status: "right" } | { status: "wrong" } | { status: "limited"; retryAfterSeconds: number };

/**
 * A second-step code, counted against the account before it is checked (one statement, so
 * parallel posts each take their own place in the count): beyond SECOND_STEP_LIMIT in the
 * window, no code is checked at all, not even a right one. A right code gives its place back.
 */
export async function checkSecondStepCode(userId: string, code: string): Promise<CountedCheck> {
  const key = `two-step:user:${userId}`;
  const hit = await hitRateLimit(key, SECOND_STEP_LIMIT);
  if (!hit.allowed) return { status: "limited", retryAfterSeconds: hit.retryAfterSeconds };
  if (!(await verifySecondStep(userId, code))) return { status: "wrong" };
  await refundRateLimit(key);
  return { status: "right" };
}

export function tooManyCodesMessage(retryAfterSeconds: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/**
 * Turning two-step off needs a current code (or a recovery code), counted like a sign-in's.
 * Every other session of the account ends.
 */
export async function disableTwoStep(
  userId: string,
  code: string,
  keepSessionId: string | null,
): Promise<CountedCheck> {
  const check = await checkSecondStepCode(userId, code);
  if (check.status !== "right") return check;
  await deleteTotp(userId);
  await endOtherSessions(userId, keepSessionId);
  return check;
}

// --- The step between a right password and a session ----------------------------------------

const challengeCookie = () =>
  createCookie("__two_step", {
    httpOnly: true,
    sameSite: "lax",
    path: "/auth",
    secure: getEnv().NODE_ENV === "production",
    secrets: [getEnv().SESSION_SECRET],
    maxAge: CHALLENGE_TTL_SECONDS,
  });

/** After a right password: a challenge row and the Set-Cookie that points the browser to it. */
export async function startSignInChallenge(userId: string): Promise<string> {
  const token = createToken();
  await insertSignInChallenge({
    idHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
  });
  return challengeCookie().serialize(token);
}

export function clearChallengeCookie() {
  return challengeCookie().serialize("", { maxAge: 0 });
}

async function challengeIdHash(request: Request): Promise<string | null> {
  const token: unknown = await challengeCookie().parse(request.headers.get("Cookie"));
  return typeof token === "string" && token.length > 0 && token.length <= 100 ? hashToken(token) : null;
}

/** The account waiting for its second step in this browser, or null (start over at /auth). */
export async function readSignInChallenge(request: Request) {
  const idHash = await challengeIdHash(request);
  return idHash ? findSignInChallenge(idHash) : null;
}

export type ChallengeResult =
  | { status: "verified"; userId: string }
  | { status: "wrong"; remaining: number }
  | { status: "limited"; retryAfterSeconds: number }
  | { status: "start-over" };

/**
 * Checks the code of this browser's challenge. Each post first claims one of the challenge's
 * attempts (atomically), then one of the account's (checkSecondStepCode). Right: the challenge
 * ends (once: two racing requests cannot both sign in). The fifth attempt ends the challenge.
 */
export async function answerSignInChallenge(request: Request, code: string): Promise<ChallengeResult> {
  const idHash = await challengeIdHash(request);
  const claim = idHash ? await claimChallengeAttempt(idHash, MAX_WRONG_CODES) : null;
  if (!idHash || !claim) return { status: "start-over" };
  const check = await checkSecondStepCode(claim.userId, code);
  if (check.status === "right") {
    return (await deleteSignInChallenge(idHash))
      ? { status: "verified", userId: claim.userId }
      : { status: "start-over" };
  }
  if (check.status === "limited") return check;
  if (claim.attempts >= MAX_WRONG_CODES) {
    await deleteSignInChallenge(idHash);
    return { status: "start-over" };
  }
  return { status: "wrong", remaining: MAX_WRONG_CODES - claim.attempts };
}
