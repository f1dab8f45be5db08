import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./account-constants";

// The schemas of the public account forms (Sign In, Sign Up, forgotten password, new password,
// two-step code), used by their routes' actions and by the browser's instant validation
// (auth-forms.browser.ts, decision 068), both through Conform's `parseWithZod`, so that the two
// give the same message for the same value. Client-safe: zod and client-safe constants only.
const email = z
  .string({ required_error: "Email is required" })
  .trim()
  .email("Enter a valid email address")
  .max(320, "Email is too long");

/** A password being chosen (sign-up, reset). */
const newPassword = z
  .string({ required_error: "Password is required" })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, "Password is too long");

export const SignInSchema = z.object({
  email,
  password: z.string({ required_error: "Password is required" }).max(1024, "Password is too long"),
});

export const SignUpSchema = z.object({
  fullName: z
    .string({ required_error: "Full name is required" })
    .trim()
    .min(1, "Full name is required")
    .max(200, "Full name is too long"),
  email,
  password: newPassword,
});

/** /auth/forgot-password. */
export const ForgotPasswordSchema = z.object({ email });

/** /auth/reset-password (the token travels beside it in a hidden field). */
export const ResetPasswordSchema = z.object({ password: newPassword });

const CODE_REQUIRED = "Enter the code from your authenticator app.";

/** /auth/verify: a 6-digit code or a recovery code; the server checks which. */
export const TwoStepCodeSchema = z.object({
  code: z.string({ required_error: CODE_REQUIRED }).trim().min(1, CODE_REQUIRED),
});

/** /account/security: the button pressed, and the code of "Turn on" and "Turn off". */
export const SECURITY_INTENTS = ["sign-out-others", "setup", "enable", "disable"] as const;
export const SecurityFormSchema = z.object({
  intent: z.enum(SECURITY_INTENTS),
  // A missing code is a wrong code (the server says so); longer than any code is cut, not refused.
  code: z
    .string()
    .optional()
    .transform((code) => (code ?? "").slice(0, 40)),
});
