import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { MANUAL_METHODS, PAYMENT_METHOD_LABELS, recordPaymentSchema, refundSchema } from "./billing-schema";
import { ErrorList, Field, SelectField, TextareaField } from "~/components/forms";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui-classes";

/**
 * The admin invoice page's forms (decision 017's kit, Conform). Each posts with `intent` and a
 * key made when the page was rendered: pressing twice (or resending) posts the same key, and the
 * workflow records one payment. They work without JavaScript.
 */
type LastResult = SubmissionResult<string[]> | undefined;
const gridClass = "mt-4 grid gap-4 sm:grid-cols-2";

function FormMessage({ id, errors }: { id: string; errors: string[] | undefined }) {
  return <ErrorList id={id} errors={errors} className="sm:col-span-2 font-medium text-red-800 dark:text-red-300" />;
}

export function RecordPaymentForm({
  idempotencyKey,
  defaults,
  lastResult,
  busy,
}: {
  idempotencyKey: string;
  defaults: { amount: string; paidOn: string };
  lastResult: LastResult;
  busy: boolean;
}) {
  const [form, fields] = useForm({
    id: "record-payment",
    lastResult,
    defaultValue: { method: "cash", amount: defaults.amount, paidOn: defaults.paidOn, note: "", key: idempotencyKey },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: recordPaymentSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className={gridClass}>
      <input type="hidden" name="intent" value="record-payment" />
      <input type="hidden" name="key" value={idempotencyKey} />
      <FormMessage id={form.errorId} errors={form.errors ?? fields.key.errors} />
      <SelectField field={fields.method} label="Method" selectProps={{ required: true }}>
        {MANUAL_METHODS.map((method) => (
          <option key={method} value={method}>
            {PAYMENT_METHOD_LABELS[method]}
          </option>
        ))}
      </SelectField>
      <Field
        field={fields.amount}
        label="Amount"
        description="In dollars and cents, e.g. 12.50"
        inputProps={{ inputMode: "decimal", autoComplete: "off", required: true }}
      />
      <Field field={fields.paidOn} label="Date" inputProps={{ type: "date", required: true }} />
      <TextareaField field={fields.note} label="Note" description="Optional: a check number, who paid." />
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Record payment
        </button>
      </div>
    </Form>
  );
}

/**
 * A form on one payment with an amount and a reason: "Refund" (money given back; the invoice stays
 * paid) or "Reverse payment" (a check that bounced: the invoice owes it again).
 */
export function PaymentAmountForm({
  intent,
  paymentId,
  most,
  idempotencyKey,
  lastResult,
  busy,
}: {
  intent: "refund" | "reverse-payment";
  paymentId: string;
  most: string;
  idempotencyKey: string;
  lastResult: LastResult;
  busy: boolean;
}) {
  const words = PAYMENT_AMOUNT_FORMS[intent];
  const [form, fields] = useForm({
    id: `${intent}-${paymentId}`,
    lastResult,
    defaultValue: { paymentId, amount: most, note: "", key: idempotencyKey },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: refundSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className={gridClass}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="paymentId" value={paymentId} />
      <input type="hidden" name="key" value={idempotencyKey} />
      <FormMessage id={form.errorId} errors={form.errors} />
      <Field
        field={fields.amount}
        label={words.amount}
        description={`At most ${most}`}
        inputProps={{ inputMode: "decimal", autoComplete: "off", required: true }}
      />
      <Field field={fields.note} label={words.reason} />
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className={secondaryButtonClass}>
          {words.button}
        </button>
      </div>
    </Form>
  );
}

const PAYMENT_AMOUNT_FORMS = {
  refund: { amount: "Refund amount", reason: "Reason for the refund", button: "Refund" },
  "reverse-payment": { amount: "Amount reversed", reason: "Why it is reversed", button: "Reverse payment" },
} as const;

/** A form of one button (Void, Mark uncollectible, Charge) and the refusal's message above it. */
function OneButtonForm({
  intent,
  label,
  busy,
  errors,
}: {
  intent: "void" | "uncollectible" | "charge-card" | "reissue";
  label: string;
  busy: boolean;
  errors?: string[];
}) {
  return (
    <Form method="post" className="mt-4">
      <input type="hidden" name="intent" value={intent} />
      <ErrorList id={`${intent}-errors`} errors={errors} className="font-medium text-red-800 dark:text-red-300" />
      <button type="submit" disabled={busy} className={secondaryButtonClass}>
        {label}
      </button>
    </Form>
  );
}

export function VoidForm({ busy, errors }: { busy: boolean; errors?: string[] }) {
  return <OneButtonForm intent="void" label="Void" busy={busy} errors={errors} />;
}

export function ReissueForm({ busy, errors }: { busy: boolean; errors?: string[] }) {
  return <OneButtonForm intent="reissue" label="Issue again" busy={busy} errors={errors} />;
}

export function UncollectibleForm({ busy, errors }: { busy: boolean; errors?: string[] }) {
  return <OneButtonForm intent="uncollectible" label="Mark uncollectible" busy={busy} errors={errors} />;
}

export function ChargeCardForm({ balance, busy, errors }: { balance: string; busy: boolean; errors?: string[] }) {
  return <OneButtonForm intent="charge-card" label={`Charge ${balance}`} busy={busy} errors={errors} />;
}
