import { randomBytes } from "node:crypto";
import { generateTOTP, getTOTPAuthUri, verifyTOTP } from "@epic-web/totp";
import { createCookie } from "@remix-run/node";
import QRCode from "qrcode";
import { createToken, hashToken } from "./account-tokens.server";
import {
  claimRecoveryCode,
  claimTotpStep,
  countChallengeFailure,
  deleteSignInChallenge,
  deleteTotp,
  enableTotp,
  findSignInChallenge,
  findTotp,
  insertSignInChallenge,
  upsertPendingTotp,
} from "~/models/two-step.server";
import { getEnv } from "~/utils/env.server";

// RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps.
const TOTP = { algorithm: "SHA-1", digits: 6, period: 30 } as const;
/** One step of clock drift either way. */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
export const MAX_WRONG_CODES = 5;
const CHALLENGE_TTL_SECONDS = 10 * 60;

const currentStep = () => Math.floor(Date.now() / 1000 / TOTP.period);

export async function isTwoStepEnabled(userId: string): Promise<boolean> {
  return Boolean((await findTotp(userId))?.enabledAt);
}

export type Enrolment = { secret: string; otpauthUri: string; qrCodeDataUrl: string };

/** The pending secret of an enrolment (made now if there is none), as a QR code and as text. */
export async function startEnrolment(user: { id: string; email: string }): Promise<Enrolment | null> {
  let row = await findTotp(user.id);
  if (row?.enabledAt) return null;
  if (!row) {
    const { secret } = await generateTOTP(TOTP);
    await upsertPendingTotp(user.id, secret);
    row = await findTotp(user.id);
    if (!row) return null;
  }
  const issuer = new URL(getEnv().SITE_URL).hostname;
  const otpauthUri = getTOTPAuthUri({ ...TOTP, secret: row.secret, accountName: user.email, issuer });
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: "M", margin: 2, width: 220 });
  return { secret: row.secret, otpauthUri, qrCodeDataUrl };
}

/** Checks a TOTP code against a secret and claims its step, so that it works once. */
async function redeemTotpCode(userId: string, secret: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const result = await verifyTOTP({ ...TOTP, otp: code, secret, window: DRIFT_STEPS });
  if (!result) return false;
  return claimTotpStep(userId, currentStep() + result.delta);
}

const normalizeCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/**
 * Turns two-step on when `code` is right for the pending secret. Returns the recovery codes,
 * in clear this once (only their hashes are kept), or null when the code is wrong.
 */
export async function completeEnrolment(userId: string, code: string): Promise<string[] | null> {
  const row = await findTotp(userId);
  if (!row || row.enabledAt) return null;
  if (!(await redeemTotpCode(userId, row.secret, normalizeCode(code)))) return null;
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomBytes(5).toString("hex"); // 40 bits each, single use
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await enableTotp(
    userId,
    codes.map((c) => hashToken(normalizeCode(c))),
  );
  return codes;
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

/** Turning two-step off needs a current code (or a recovery code). */
export async function disableTwoStep(userId: string, code: string): Promise<boolean> {
  if (!(await verifySecondStep(userId, code))) return false;
  await deleteTotp(userId);
  return true;
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
  { status: "verified"; userId: string } | { status: "wrong"; remaining: number } | { status: "start-over" };

/**
 * Checks the code of this browser's challenge. Right: the challenge ends (once: two racing
 * requests cannot both sign in). Wrong: counted; the fifth wrong code ends the challenge.
 */
export async function answerSignInChallenge(request: Request, code: string): Promise<ChallengeResult> {
  const idHash = await challengeIdHash(request);
  const challenge = idHash ? await findSignInChallenge(idHash) : null;
  if (!idHash || !challenge || challenge.failedAttempts >= MAX_WRONG_CODES) return { status: "start-over" };
  if (await verifySecondStep(challenge.userId, code)) {
    return (await deleteSignInChallenge(idHash))
      ? { status: "verified", userId: challenge.userId }
      : { status: "start-over" };
  }
  const failures = await countChallengeFailure(idHash);
  if (failures >= MAX_WRONG_CODES) {
    await deleteSignInChallenge(idHash);
    return { status: "start-over" };
  }
  return { status: "wrong", remaining: MAX_WRONG_CODES - failures };
}
