import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { isMailConfigured, sendMail, type OutgoingMail } from "~/utils/mailer.server";

export type AccountEmail =
  | { kind: "verify-email"; to: string; payload: { name: string; link: string } }
  | { kind: "reset-password"; to: string; payload: { name: string; link: string } }
  // An account made for a customer from their quote request (decision 096).
  | { kind: "set-password"; to: string; payload: { name: string; link: string; businessName: string } }
  // A staff account the owner made on the Staff page (decision 123): the same link, other words.
  | {
      kind: "staff-invite";
      to: string;
      payload: { name: string; link: string; businessName: string; roleLabel: string };
    };

const MAX_GREETING_NAME = 60;
// Text a mail client would turn into a link: a scheme ("https://", "mailto:"), "www.", an
// address, or a domain name (letters, a dot, letters; also the full-width dots).
const URL_LIKE =
  /[a-z][a-z0-9+.-]*:\S+|www[.\u3002\uff0e\uff61]\S*|\S*@\S*|\S*[\p{L}\p{N}_-][.\u3002\uff0e\uff61][\p{L}\p{N}]{2,}\S*/giu;

/**
 * The greeting of an account e-mail. The name is whatever the signer-up typed, and the mail
 * leaves from the business's address (issue 24): only its first line, without control or
 * invisible format characters and without anything link-like, and only when that leaves a name
 * of at most 60 characters; otherwise "Hello,".
 */
export function greetingFor(name: string | null | undefined): string {
  const firstLine = (name ?? "").split(/[\n\r\v\f\u0085\u2028\u2029]/u, 1)[0];
  const cleaned = firstLine
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(URL_LIKE, " ")
    .replace(/\s+/gu, " ")
    .trim();
  if (!/\p{L}/u.test(cleaned) || [...cleaned].length > MAX_GREETING_NAME) return "Hello,";
  return `Hello ${cleaned},`;
}

/** The subject and text of an account e-mail (the invite's text is stored in the outbox, 110). */
export function composeAccountEmail(email: AccountEmail): OutgoingMail {
  const hello = greetingFor(email.payload.name);
  switch (email.kind) {
    case "verify-email":
      return {
        to: email.to,
        subject: "Please verify your e-mail address",
        text: [
          hello,
          "",
          "Please confirm that this is your e-mail address by opening this link within 24 hours:",
          email.payload.link,
          "",
          "If you did not create an account, you can ignore this message.",
        ].join("\n"),
      };
    case "reset-password":
      return {
        to: email.to,
        subject: "Reset your password",
        text: [
          hello,
          "",
          "Someone asked to reset the password of your account. To choose a new one, open this link within one hour:",
          email.payload.link,
          "",
          "If it was not you, ignore this message: your password stays as it is.",
        ].join("\n"),
      };
    case "set-password":
      return {
        to: email.to,
        subject: "Set your password",
        text: [
          hello,
          "",
          `${email.payload.businessName} has made an account for you, where you can see your plan and your visits, skip a visit or pause the service.`,
          "To choose your password and sign in, open this link within 7 days (it works once):",
          email.payload.link,
          "",
          'If the link has expired, use "Forgot password?" on the sign-in page with this e-mail address.',
        ].join("\n"),
      };
    case "staff-invite":
      return {
        to: email.to,
        subject: `Join ${email.payload.businessName}`,
        text: [
          hello,
          "",
          `${email.payload.businessName} has made a staff account for you (${email.payload.roleLabel}).`,
          "To choose your password and sign in, open this link within 7 days (it works once):",
          email.payload.link,
          "",
          "Staff accounts use two-step sign-in: after your password, you will be asked to set it up with an authenticator app.",
        ].join("\n"),
      };
  }
}

/**
 * The one place verification and password-reset e-mails leave from (the invite's set-password
 * link goes through the outbox, its link made when it is sent: decision 110). Never awaited in a request: the answer does not depend on
 * the SMTP server, and the mail goes out after it is decided. Tokens and links are never logged.
 * Returns the sending promise (it never rejects) for tests and scripts that want to wait.
 */
export function sendAccountEmail(email: AccountEmail): Promise<void> {
  if (!isMailConfigured() || !getEnv().MAIL_FROM) {
    log.info("account_email.skipped", { kind: email.kind, reason: "SMTP_URL or MAIL_FROM not set" });
    return Promise.resolve();
  }
  return sendMail(composeAccountEmail(email)).then(
    () => log.info("account_email.sent", { kind: email.kind }),
    (error: unknown) => log.error("account_email.failed", { kind: email.kind, ...errorFields(error) }),
  );
}
