/**
 * The public account pages' browser script (decision 068): /auth (Sign In, Sign Up),
 * /auth/forgot-password, /auth/reset-password, /auth/set-password and /auth/verify. Each form is found by its id and
 * checked with the schema its route's action parses, so a message shown here is word for word
 * the server's. Without this script the forms post and answer just the same.
 *
 * Plain browser code: zod, Conform's parser and `enhanceForm`, never React or Remix
 * (.dependency-cruiser.cjs keeps it so).
 */
import type { ZodTypeAny } from "zod";
import { enhanceForm, validateWithSchema } from "~/utils/form-enhancement";
import {
  ForgotPasswordSchema,
  ResetPasswordSchema,
  SignInSchema,
  SignUpSchema,
  TwoStepCodeSchema,
} from "./auth-schemas";

/** The forms' ids (set in auth-forms.tsx and the /auth/* routes) and their schemas. */
const SCHEMAS: Record<string, ZodTypeAny> = {
  signin: SignInSchema,
  signup: SignUpSchema,
  "forgot-password": ForgotPasswordSchema,
  "reset-password": ResetPasswordSchema,
  // /auth/set-password (an account made from a quote request) asks for its first password alike.
  "set-password": ResetPasswordSchema,
  "two-step": TwoStepCodeSchema,
};

for (const [id, schema] of Object.entries(SCHEMAS)) {
  const form = document.getElementById(id);
  if (!(form instanceof HTMLFormElement)) continue;
  // The browser's own checks (required, type=email, minLength) stay on without JavaScript; here
  // the schema's messages replace its bubbles.
  form.noValidate = true;
  // Every field renders its error element (auth-fields.tsx, account-form.tsx): no errorClass.
  enhanceForm(form, { validate: validateWithSchema(schema) });
}
