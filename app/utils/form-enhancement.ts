/**
 * Instant validation for a server-rendered form, without React (decision 068). The form posts
 * as it does with JavaScript off; this adds what Conform's `useForm` added on hydrated pages:
 *
 * - a field is checked when it loses focus, and again on every keystroke once it has been
 *   checked (or once the server marked it invalid): the same `validate` as the server's;
 * - a submit with errors stays on the page, shows every message and focuses the first invalid
 *   field; a valid submit marks the button busy (its `data-busy-label`) and ignores a second
 *   click until the next page;
 * - a message is written into the field's error element, `<control id>-error` (Conform's
 *   naming, so the server's and the browser's messages land in the same place), with
 *   `aria-invalid` and `aria-describedby` as Conform sets them.
 *
 * Browser code only: imported by `*.browser.ts` entries, never by a route.
 */

import { parseWithZod } from "@conform-to/zod";
import type { ZodTypeAny } from "zod";

export type FieldErrors = Record<string, string[] | null | undefined> | null | undefined;

/** A `validate` that parses as the server's action does (Conform's `parseWithZod`), so the messages match. */
export function validateWithSchema(schema: ZodTypeAny): (formData: FormData) => FieldErrors {
  return (formData) => {
    const submission = parseWithZod(formData, { schema });
    return submission.status === "success" ? null : submission.error;
  };
}

export type EnhanceFormOptions = {
  /** The errors of the form's current values, by field name (Conform's `submission.error`). */
  validate: (formData: FormData) => FieldErrors;
  /** After every input or change: a live figure that follows the fields, for example. */
  onChange?: (formData: FormData) => void;
  /** The class of an error element the server did not render. */
  errorClass?: string;
};

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function isControl(target: EventTarget | null): target is Control {
  return (
    (target instanceof HTMLInputElement ||
      target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement) &&
    target.name !== "" &&
    target.type !== "hidden" &&
    target.type !== "submit"
  );
}

/** The form's named, visible controls in page order (honeypots are hidden from people: skipped). */
function controlsOf(form: HTMLFormElement): Control[] {
  return Array.from(form.elements).filter(
    (element): element is Control => isControl(element) && element.id !== "" && !element.closest("[aria-hidden=true]"),
  );
}

function errorElementFor(control: Control, errorClass: string | undefined): HTMLElement {
  const id = `${control.id}-error`;
  const existing = document.getElementById(id);
  if (existing) return existing;
  const element = document.createElement("p");
  element.id = id;
  if (errorClass) element.className = errorClass;
  control.insertAdjacentElement("afterend", element);
  return element;
}

function showFieldErrors(control: Control, messages: string[] | null | undefined, errorClass: string | undefined) {
  const text = messages?.length ? messages.join(" ") : "";
  const errorId = `${control.id}-error`;
  const others = (control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter((id) => id && id !== errorId);
  if (text) {
    const element = errorElementFor(control, errorClass);
    element.textContent = text;
    element.hidden = false;
    control.setAttribute("aria-invalid", "true");
    control.setAttribute("aria-describedby", [errorId, ...others].join(" "));
  } else {
    const element = document.getElementById(errorId);
    if (element) {
      element.textContent = "";
      element.hidden = true;
    }
    control.removeAttribute("aria-invalid");
    if (others.length) control.setAttribute("aria-describedby", others.join(" "));
    else control.removeAttribute("aria-describedby");
  }
}

function submitButtonsOf(form: HTMLFormElement): HTMLButtonElement[] {
  return Array.from(form.querySelectorAll<HTMLButtonElement>("button[type=submit], button:not([type])"));
}

export function enhanceForm(form: HTMLFormElement, { validate, onChange, errorClass }: EnhanceFormOptions) {
  // Fields whose messages follow every keystroke: those checked once, and those the server
  // already marked invalid.
  const checked = new Set<string>(
    controlsOf(form)
      .filter((control) => control.getAttribute("aria-invalid") === "true")
      .map((control) => control.name),
  );
  let busy = false;

  const showErrors = (errors: FieldErrors, names: Iterable<string>) => {
    const wanted = new Set(names);
    for (const control of controlsOf(form)) {
      if (wanted.has(control.name)) showFieldErrors(control, errors?.[control.name], errorClass);
    }
  };

  form.addEventListener("focusout", (event) => {
    if (!isControl(event.target) || busy) return;
    checked.add(event.target.name);
    showErrors(validate(new FormData(form)), [event.target.name]);
  });

  const changed = (event: Event) => {
    if (!isControl(event.target)) return;
    const formData = new FormData(form);
    if (checked.has(event.target.name)) showErrors(validate(formData), [event.target.name]);
    onChange?.(formData);
  };
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);

  form.addEventListener("submit", (event) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    const controls = controlsOf(form);
    const errors = validate(new FormData(form));
    for (const control of controls) checked.add(control.name);
    const invalid = controls.find((control) => (errors?.[control.name]?.length ?? 0) > 0);
    if (invalid) {
      event.preventDefault();
      showErrors(errors, checked);
      invalid.focus();
      return;
    }
    busy = true;
    for (const button of submitButtonsOf(form)) {
      // aria-disabled, not disabled: a disabled submitter would drop its name from the post.
      button.setAttribute("aria-disabled", "true");
      const label = button.dataset.busyLabel;
      if (label) {
        button.dataset.idleLabel = button.textContent ?? "";
        button.textContent = label;
      }
    }
  });

  // Back to this page from the browser's history cache: the post is over, the form is usable.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted || !busy) return;
    busy = false;
    for (const button of submitButtonsOf(form)) {
      button.removeAttribute("aria-disabled");
      if (button.dataset.idleLabel !== undefined) button.textContent = button.dataset.idleLabel;
    }
  });

  form.dataset.enhanced = "true";
}
