import { getEnv } from "~/utils/env.server";
import { errorFields, log } from "~/utils/logger.server";
import { isMailConfigured, sendMail, type OutgoingMail } from "~/utils/mailer.server";

export type AccountEmail =
  | { kind: "verify-email"; to: string; payload: { name: string; link: string } }
  | { kind: "reset-password"; to: string; payload: { name: string; link: string } };

function compose(email: AccountEmail): OutgoingMail {
  const hello = email.payload.name ? `Hello ${email.payload.name},` : "Hello,";
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
  }
}

/**
 * The one place account e-mails leave from (verification, password reset), so that it can move
 * onto the e-mail outbox in one edit. Never awaited in a request: the answer does not depend on
 * the SMTP server, and the mail goes out after it is decided. Tokens and links are never logged.
 * Returns the sending promise (it never rejects) for tests and scripts that want to wait.
 */
export function sendAccountEmail(email: AccountEmail): Promise<void> {
  if (!isMailConfigured() || !getEnv().MAIL_FROM) {
    log.info("account_email.skipped", { kind: email.kind, reason: "SMTP_URL or MAIL_FROM not set" });
    return Promise.resolve();
  }
  return sendMail(compose(email)).then(
    () => log.info("account_email.sent", { kind: email.kind }),
    (error: unknown) => log.error("account_email.failed", { kind: email.kind, ...errorFields(error) }),
  );
}
