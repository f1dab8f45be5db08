/**
 * The forms kit (decision 017), in the Epic Stack's manner: a field is its label, its control,
 * its hint and its messages, wired for assistive technology, from Conform's field metadata or
 * from plain props. Plain server-rendered HTML: no hook but `useId`, so the static pages
 * (decisions 066, 068) render it too, and every form works without JavaScript.
 *
 * The ids are Conform's: the control's `id` (Conform's `<form id>-<name>`, or one given),
 * `<id>-error` for its messages and `<id>-hint` for its hint. A field that can be refused (one
 * given Conform's `field`, or an `errors` prop, even undefined) always has its error element in
 * the markup, `hidden` while empty, so that the static pages' browser scripts (`enhanceForm`,
 * app/utils/form-enhancement.ts) write their messages into the same place as the server's: a
 * `<p>` holding the messages joined by a space, as those scripts write them. A field that is
 * never refused (a search box, a filter) has none.
 * `aria-describedby` lists the error first, then the hint, then any `describedBy`, as Conform
 * and the scripts order them.
 */
import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import {
  useId,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type LabelHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import {
  checkClass,
  errorClass,
  fileInputClass,
  hintClass,
  inputClass,
  labelClass,
  leanInputClass,
  leanLabelClass,
} from "./ui-classes";

export type ListOfErrors = Array<string | null | undefined> | null | undefined;

// Conform's metadata of any field (the kit reads its id, name, errors, initial value, constraints).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, any>;

/** Joins class lists, skipping the empty ones. */
export function cx(...classes: Array<string | false | null | undefined>) {
  return classes.filter(Boolean).join(" ");
}

/**
 * A field's (or a form's) messages. Rendered even when there are none, hidden, when it has an
 * `id`: a browser script may write into it later.
 */
export function ErrorList({
  id,
  errors,
  className,
  ...props
}: { id?: string; errors?: ListOfErrors; className?: string } & Omit<
  HTMLAttributes<HTMLParagraphElement>,
  "children"
>) {
  const messages = errors?.filter((message): message is string => Boolean(message)) ?? [];
  if (!messages.length && !id) return null;
  return (
    <p id={id} className={className ?? errorClass} hidden={messages.length ? undefined : true} {...props}>
      {messages.join(" ")}
    </p>
  );
}

type FieldChrome = {
  /** Conform's metadata of the field: its id, name, errors, initial value and constraints. */
  field?: AnyField;
  label: ReactNode;
  labelProps?: LabelHTMLAttributes<HTMLLabelElement>;
  /** A hint below the control, part of its description (`<id>-hint`). */
  description?: ReactNode;
  /**
   * The messages to show; the field's own errors when left out. Passing it, even undefined,
   * keeps the (hidden) error element in the markup.
   */
  errors?: ListOfErrors;
  /** More ids that describe the control, after its error and hint (a live figure, for example). */
  describedBy?: string;
  /** The wrapper's classes. */
  className?: string;
  /** The error element's classes (the kit's when left out). */
  errorClassName?: string;
  /**
   * The lean look of a long list's controls (decision 076): the component classes
   * `admin-field` and `admin-label` instead of the utilities, a hundred bytes a card cheaper.
   */
  lean?: boolean;
};

/** The id, messages and aria attributes every control of the kit shares. */
function useControl(chrome: FieldChrome, ownId: string | undefined) {
  const fallbackId = useId();
  const id = ownId ?? chrome.field?.id ?? fallbackId;
  const messages = (chrome.errors !== undefined ? chrome.errors : chrome.field?.errors)?.filter(Boolean) ?? [];
  const errorId = `${id}-error`;
  const hintId = chrome.description ? `${id}-hint` : undefined;
  const invalid = messages.length > 0;
  const refusable = chrome.field !== undefined || "errors" in chrome;
  const describedBy = [invalid ? errorId : null, hintId, chrome.describedBy].filter(Boolean).join(" ");
  return {
    id,
    errorId,
    hintId,
    messages,
    refusable,
    aria: { "aria-invalid": invalid || undefined, "aria-describedby": describedBy || undefined },
  };
}

/** Conform's props of a control without `key`, which React wants passed directly. */
function withoutKey<T extends { key?: string }>({ key: _key, ...props }: T): Omit<T, "key"> {
  return props;
}

/** What follows a control: its hint, then its messages. */
function HintAndErrors({ chrome, control }: { chrome: FieldChrome; control: ReturnType<typeof useControl> }) {
  return (
    <>
      {control.hintId ? (
        <p id={control.hintId} className={hintClass}>
          {chrome.description}
        </p>
      ) : null}
      {control.refusable ? (
        <ErrorList id={control.errorId} errors={control.messages} className={chrome.errorClassName} />
      ) : null}
    </>
  );
}

function FieldFrame({
  chrome,
  control,
  children,
}: {
  chrome: FieldChrome;
  control: ReturnType<typeof useControl>;
  children: ReactNode;
}) {
  const { className: labelClassName, ...labelProps } = chrome.labelProps ?? {};
  return (
    <div className={chrome.className}>
      <label
        htmlFor={control.id}
        className={labelClassName ?? (chrome.lean ? leanLabelClass : labelClass)}
        {...labelProps}
      >
        {chrome.label}
      </label>
      {children}
      <HintAndErrors chrome={chrome} control={control} />
    </div>
  );
}

/** The classes of a text-like control: the lean ones in a long list, the full ones elsewhere. */
const controlClass = (chrome: FieldChrome, own: string | undefined) =>
  cx(chrome.lean ? leanInputClass : inputClass, own);

/**
 * A labelled `<input>`: `field` (Conform) and/or `inputProps` (plain, or overriding the field's).
 * A file input takes the file look. `children` follow the control, before its hint (a
 * combobox's list and its live status).
 */
export function Field({
  inputProps = {},
  children,
  ...chrome
}: FieldChrome & { inputProps?: InputHTMLAttributes<HTMLInputElement>; children?: ReactNode }) {
  const control = useControl(chrome, inputProps.id);
  const fromField = chrome.field
    ? withoutKey(getInputProps(chrome.field, { type: (inputProps.type ?? "text") as "text" }))
    : {};
  return (
    <FieldFrame chrome={chrome} control={control}>
      <input
        {...fromField}
        {...inputProps}
        id={control.id}
        {...control.aria}
        className={
          inputProps.type === "file"
            ? cx(fileInputClass, inputProps.className)
            : controlClass(chrome, inputProps.className)
        }
      />
      {children}
    </FieldFrame>
  );
}

/** A labelled `<textarea>`. */
export function TextareaField({
  textareaProps = {},
  ...chrome
}: FieldChrome & { textareaProps?: TextareaHTMLAttributes<HTMLTextAreaElement> }) {
  const control = useControl(chrome, textareaProps.id);
  const fromField = chrome.field ? withoutKey(getTextareaProps(chrome.field)) : {};
  return (
    <FieldFrame chrome={chrome} control={control}>
      <textarea
        {...fromField}
        {...textareaProps}
        id={control.id}
        {...control.aria}
        className={controlClass(chrome, textareaProps.className)}
      />
    </FieldFrame>
  );
}

/** A labelled `<select>`; its `<option>`s are the children. */
export function SelectField({
  selectProps = {},
  children,
  ...chrome
}: FieldChrome & { selectProps?: SelectHTMLAttributes<HTMLSelectElement>; children: ReactNode }) {
  const control = useControl(chrome, selectProps.id);
  const fromField = chrome.field ? withoutKey(getSelectProps(chrome.field)) : {};
  return (
    <FieldFrame chrome={chrome} control={control}>
      <select
        {...fromField}
        {...selectProps}
        id={control.id}
        {...control.aria}
        className={controlClass(chrome, selectProps.className)}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/**
 * A native checkbox (or, with `type: "radio"`, a radio button) with its label beside it: a
 * 44 px row. A group's messages belong to its `<fieldset>` (an `ErrorList` after it).
 */
export function CheckboxField({
  inputProps = {},
  ...chrome
}: FieldChrome & { inputProps?: InputHTMLAttributes<HTMLInputElement> }) {
  const control = useControl(chrome, inputProps.id);
  const fromField = chrome.field
    ? withoutKey(getInputProps(chrome.field, { type: (inputProps.type ?? "checkbox") as "checkbox" }))
    : {};
  const { className: labelClassName, ...labelProps } = chrome.labelProps ?? {};
  return (
    <div className={chrome.className}>
      <div className="flex min-h-11 items-center gap-2">
        <input
          type="checkbox"
          {...fromField}
          {...inputProps}
          id={control.id}
          {...control.aria}
          className={cx(checkClass, inputProps.className)}
        />
        <label htmlFor={control.id} className={labelClassName} {...labelProps}>
          {chrome.label}
        </label>
      </div>
      <HintAndErrors chrome={chrome} control={control} />
    </div>
  );
}
