import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { submitClass } from "~/features/accounts/auth-fields";
import { ErrorList, Field } from "~/components/forms";
import { AccountPage } from "~/features/accounts/account-form";
import { RecoveryCodesPage } from "~/features/accounts/recovery-codes-page";
import { homeFor, requireUserSession } from "~/features/accounts/auth.server";
import { SecurityFormSchema } from "~/features/accounts/auth-schemas";
import {
  completeEnrolment,
  describeSetupKey,
  disableTwoStep,
  newSetupKey,
  setSetupKey,
  setupKeyOf,
  tooManyCodesMessage,
} from "~/features/accounts/two-step.server";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { deleteSessionsOfUser } from "~/models/account.server";
import { countUnusedRecoveryCodes } from "~/models/two-step.server";
import { readFormData } from "~/utils/form-data.server";
import { log } from "~/utils/logger.server";
import { commitSession, setSecondStepAt } from "~/utils/session.server";
import { jsonWithSuccess, redirectWithSuccess } from "~/utils/toast.server";

// The setup key is a secret: never cached anywhere.
const NO_STORE = { "Cache-Control": "no-store" };

// A page view writes nothing (issue 24): the setup key shown is the one this session asked for
// with "Set up two-step", if any.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, session } = await requireUserSession(request, context);
  const setupKey = user.twoStepEnabled ? null : setupKeyOf(session);
  const setup = setupKey ? await describeSetupKey(user, setupKey) : null;
  return json(
    {
      enabled: user.twoStepEnabled,
      requiredForAdmin: user.isStaff && !user.twoStepEnabled,
      home: homeFor(user),
      recoveryCodesLeft: user.twoStepEnabled ? await countUnusedRecoveryCodes(user.id) : 0,
      setup: setup ? { secret: setup.secret, qrCode: setup.qrCodeDataUrl } : null,
    },
    { headers: NO_STORE },
  );
}

// Every refusal is Conform's `submission.reply()` (decision 017): a code's messages on the code
// field, the others on the form; the code itself is never sent back.
type ActionData = { result: SubmissionResult<string[]>; recoveryCodes?: string[] };

const WRONG_CODE = "That code is not right. Please try again.";

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, session } = await requireUserSession(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: SecurityFormSchema });
  const refuse = (status: number, errors: { code?: string; form?: string }, headers?: HeadersInit) =>
    json<ActionData>(
      {
        result: submission.reply({
          fieldErrors: errors.code ? { code: [errors.code] } : undefined,
          formErrors: errors.form ? [errors.form] : undefined,
          hideFields: ["code"],
        }),
      },
      { status, headers },
    );
  if (submission.status !== "success") return refuse(400, { form: "Unknown action." });
  const { intent, code } = submission.value;

  if (intent === "sign-out-others") {
    const ended = await deleteSessionsOfUser(user.id, session.id || null);
    log.info("auth.sessions.ended_others", { userId: user.id, ended });
    return jsonWithSuccess<ActionData>(
      { result: submission.reply({ resetForm: true }) },
      { message: "Signed out elsewhere", description: "Every other device has been signed out." },
    );
  }
  if (intent === "setup") {
    if (user.twoStepEnabled) return refuse(409, { form: "Two-step verification is already on." });
    // A new key at every press, kept in this session only.
    setSetupKey(session, await newSetupKey());
    return redirect("/account/security", { headers: { ...NO_STORE, "Set-Cookie": await commitSession(session) } });
  }
  if (intent === "enable") {
    if (user.twoStepEnabled) return refuse(409, { form: "Two-step verification is already on." });
    const setupKey = setupKeyOf(session);
    if (!setupKey) return refuse(400, { form: "Press \u201cSet up two-step\u201d first." });
    const enrolment = await completeEnrolment(user.id, setupKey, code, session.id || null);
    if (!enrolment) return refuse(400, { code: WRONG_CODE });
    // This session proved the code just now: it is the one that stays, with its second step.
    setSetupKey(session, null);
    setSecondStepAt(session, enrolment.enabledAt);
    log.info("auth.two_step.enabled", { userId: user.id });
    return json<ActionData>(
      { result: submission.reply({ resetForm: true }), recoveryCodes: enrolment.recoveryCodes },
      { headers: { ...NO_STORE, "Set-Cookie": await commitSession(session) } },
    );
  }
  if (!user.twoStepEnabled) return refuse(409, { form: "Two-step verification is off." });
  const check = await disableTwoStep(user.id, code, session.id || null);
  if (check.status === "limited") {
    return refuse(
      429,
      { code: tooManyCodesMessage(check.retryAfterSeconds) },
      { "Retry-After": String(check.retryAfterSeconds) },
    );
  }
  if (check.status === "wrong") return refuse(400, { code: WRONG_CODE });
  setSecondStepAt(session, null);
  log.info("auth.two_step.disabled", { userId: user.id });
  return redirectWithSuccess(
    "/account/security",
    { message: "Two-step verification is off", description: "Signing in now needs only your password." },
    { headers: { "Set-Cookie": await commitSession(session) } },
  );
}

export default function SecurityPage() {
  const { enabled, requiredForAdmin, home, recoveryCodesLeft, setup } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";

  const codeErrors = data?.result.error?.code;
  const formErrors = data?.result.error?.[""];

  if (data?.recoveryCodes) return <RecoveryCodesPage codes={data.recoveryCodes} home={home} />;

  return (
    <AccountPage title="Two-step verification">
      {requiredForAdmin ? (
        <p role="alert" className="mb-4 font-semibold text-slate-900 dark:text-white">
          Admins must use two-step verification. Turn it on to open the admin pages.
        </p>
      ) : null}
      {enabled ? (
        <>
          <p className="text-slate-800 dark:text-slate-200">
            Two-step verification is on. Signing in needs your password and a code from your authenticator app.
          </p>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">Unused recovery codes: {recoveryCodesLeft}</p>
          <Form method="post" className="mt-6 grid gap-4">
            <input type="hidden" name="intent" value="disable" />
            <Field
              label="Verification code"
              inputProps={{
                id: "disable-code",
                name: "code",
                type: "text",
                required: true,
                autoComplete: "one-time-code",
                maxLength: 40,
              }}
              errors={codeErrors}
            />
            <button type="submit" className={submitClass} disabled={busy}>
              Turn off
            </button>
          </Form>
        </>
      ) : setup ? (
        <>
          <p className="text-slate-800 dark:text-slate-200">
            Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…), then enter the code
            it shows.
          </p>
          <img
            src={setup.qrCode}
            alt="QR code to add this account to an authenticator app"
            width={220}
            height={220}
            className="mx-auto mt-4 rounded bg-white"
          />
          <p className="mt-4 text-slate-800 dark:text-slate-200">
            Setup key{" "}
            <code className="break-all rounded bg-slate-100 px-1 font-mono dark:bg-slate-800">{setup.secret}</code>
          </p>
          <Form method="post" className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="enable" />
            <Field
              label="Verification code"
              inputProps={{
                id: "enable-code",
                name: "code",
                type: "text",
                required: true,
                inputMode: "numeric",
                autoComplete: "one-time-code",
                maxLength: 10,
              }}
              errors={codeErrors}
            />
            <button type="submit" className={submitClass} disabled={busy}>
              Turn on
            </button>
          </Form>
        </>
      ) : (
        <>
          <p className="text-slate-800 dark:text-slate-200">
            Two-step verification is off. With it on, signing in needs your password and a code from an authenticator
            app (Google Authenticator, 1Password, Authy…).
          </p>
          <Form method="post" className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="setup" />
            <button type="submit" className={submitClass} disabled={busy}>
              Set up two-step
            </button>
          </Form>
        </>
      )}
      <ErrorList role="alert" errors={formErrors} className="mt-4 text-red-700 dark:text-red-300" />

      <Form method="post" className="mt-8 border-t border-slate-200 pt-6 dark:border-slate-700">
        <input type="hidden" name="intent" value="sign-out-others" />
        <button
          type="submit"
          className="inline-flex min-h-11 w-full items-center justify-center rounded-full border-2 border-slate-500 px-6 py-2 font-semibold text-slate-900 hover:bg-slate-50 dark:text-white dark:hover:bg-slate-800"
          disabled={busy}
        >
          Sign out of all other devices
        </button>
      </Form>
    </AccountPage>
  );
}

export const meta: MetaFunction = () => [{ title: "Two-step verification" }, { name: "robots", content: "noindex" }];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
