import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./account-constants";

// The Sign In and Sign Up forms' schemas, used by /auth's action and, through Conform, by the
// browser. Client-safe.
const email = z
  .string({ required_error: "Email is required" })
  .trim()
  .email("Enter a valid email address")
  .max(320, "Email is too long");

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
  password: z
    .string({ required_error: "Password is required" })
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024, "Password is too long"),
});
