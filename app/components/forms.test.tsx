// @vitest-environment jsdom
import { useForm, type SubmissionResult } from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CheckboxField, ErrorList, Field, SelectField, TextareaField } from "./forms";

// The kit as the server renders it (the static pages ship no React): parsed back into a DOM.
function render(element: React.ReactElement) {
  const container = document.createElement("div");
  container.innerHTML = renderToString(element);
  return container;
}

function byId(container: HTMLElement, id: string) {
  const element = container.querySelector(`[id="${id}"]`);
  if (!element) throw new Error(`no #${id} in ${container.innerHTML}`);
  return element as HTMLElement;
}

describe("Field with plain props", () => {
  it("has no error element when it is never refused (no errors prop, no field)", () => {
    const page = render(<Field label="Search" inputProps={{ id: "q", name: "q", type: "search" }} />);
    expect(page.querySelector('[id="q-error"]')).toBeNull();
    expect(byId(page, "q").hasAttribute("aria-describedby")).toBe(false);
  });

  it("labels its input and keeps an empty, hidden error element when valid", () => {
    const page = render(
      <Field label="Email" errors={undefined} inputProps={{ id: "email", name: "email", type: "email" }} />,
    );
    const input = byId(page, "email") as HTMLInputElement;
    expect(page.querySelector("label")?.htmlFor).toBe("email");
    expect(page.querySelector("label")?.textContent).toBe("Email");
    expect(input.name).toBe("email");
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    expect(input.hasAttribute("aria-describedby")).toBe(false);
    const error = byId(page, "email-error");
    expect(error.tagName).toBe("P");
    expect(error.hidden).toBe(true);
    expect(error.textContent).toBe("");
  });

  it("shows its errors and points aria-describedby at them, then at the hint", () => {
    const page = render(
      <Field
        label="Password"
        description="At least 6 characters."
        errors={["Password must be at least 6 characters", null]}
        inputProps={{ id: "signup-password", name: "password", type: "password" }}
      />,
    );
    const input = byId(page, "signup-password");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-describedby")).toBe("signup-password-error signup-password-hint");
    const error = byId(page, "signup-password-error");
    expect(error.hidden).toBe(false);
    expect(error.textContent).toBe("Password must be at least 6 characters");
    expect(byId(page, "signup-password-hint").textContent).toBe("At least 6 characters.");
  });

  it("joins several messages as the browser scripts write them", () => {
    const page = render(<Field label="Name" errors={["One.", "Two."]} inputProps={{ id: "n", name: "n" }} />);
    expect(byId(page, "n-error").textContent).toBe("One. Two.");
  });

  it("gives a control without an id a stable one, the same on every render", () => {
    const markup = renderToString(<Field label="Search" inputProps={{ name: "q" }} />);
    expect(renderToString(<Field label="Search" inputProps={{ name: "q" }} />)).toBe(markup);
    const page = render(<Field label="Search" inputProps={{ name: "q" }} />);
    const input = page.querySelector("input") as HTMLInputElement;
    expect(input.id).not.toBe("");
    expect(page.querySelector("label")?.htmlFor).toBe(input.id);
  });

  it("adds describedBy after the error", () => {
    const page = render(
      <SelectField
        label="Service"
        errors={["Choose a service"]}
        describedBy="quote-estimate"
        selectProps={{ id: "s", name: "s" }}
      >
        <option value="">Choose…</option>
      </SelectField>,
    );
    expect(byId(page, "s").getAttribute("aria-describedby")).toBe("s-error quote-estimate");
    expect(byId(page, "s").tagName).toBe("SELECT");
  });
});

describe("the lean look, the file look, and what follows a control", () => {
  it("a lean field (a long list's) takes the component classes and nothing else", () => {
    const page = render(
      <>
        <Field lean label="Customer e-mail" inputProps={{ id: "e", name: "customerEmail", type: "email" }} />
        <SelectField lean label="Visit type" selectProps={{ id: "t", name: "serviceType" }}>
          <option value="">Select a service type</option>
        </SelectField>
      </>,
    );
    expect(byId(page, "e").className).toBe("admin-field");
    expect(byId(page, "t").className).toBe("admin-field");
    expect(page.querySelector('label[for="e"]')?.className).toBe("admin-label");
    expect(page.querySelector('label[for="t"]')?.className).toBe("admin-label");
    // Never refused on the page: no error element, no aria.
    expect(page.querySelector('[id="e-error"]')).toBeNull();
    expect(byId(page, "e").hasAttribute("aria-describedby")).toBe(false);
  });

  it("a file input takes the file look and its hint", () => {
    const page = render(
      <Field
        label="Before Image/Video"
        description="Supports images and videos (max 50MB)"
        inputProps={{ id: "before-file", name: "before", type: "file", accept: "image/*,video/*" }}
      />,
    );
    const input = byId(page, "before-file") as HTMLInputElement;
    expect(input.type).toBe("file");
    expect(input.className).toContain("file:rounded-full");
    expect(input.className).not.toContain("border-slate-500");
    expect(input.getAttribute("aria-describedby")).toBe("before-file-hint");
  });

  it("puts children right after the control, before the hint and the messages", () => {
    const page = render(
      <Field label="Customer" errors={["Select a customer"]} describedBy="s" inputProps={{ id: "c" }}>
        <p id="s">3 customers found</p>
      </Field>,
    );
    const ids = [...page.querySelectorAll("[id]")].map((element) => element.id);
    expect(ids).toEqual(["c", "s", "c-error"]);
    expect(byId(page, "c").getAttribute("aria-describedby")).toBe("c-error s");
  });
});

describe("Fields from Conform's metadata", () => {
  const refused: SubmissionResult<string[]> = {
    status: "error",
    initialValue: { name: "Al", message: "Hi", size: "small" },
    error: { name: ["Name is too short"], size: null },
  };

  function QuoteLike() {
    const [, fields] = useForm({ id: "quote", lastResult: refused });
    return (
      <>
        <Field field={fields.name} label="Full name" />
        <TextareaField field={fields.message} label="Message" />
        <SelectField field={fields.size} label="Yard size">
          <option value="small">Small</option>
          <option value="large">Large</option>
        </SelectField>
      </>
    );
  }

  it("uses the field's id, name, value and errors", () => {
    const page = render(<QuoteLike />);
    const name = byId(page, "quote-name") as HTMLInputElement;
    expect(name.name).toBe("name");
    expect(name.value).toBe("Al");
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(name.getAttribute("aria-describedby")).toBe("quote-name-error");
    expect(byId(page, "quote-name-error").textContent).toBe("Name is too short");
    expect(page.querySelector('label[for="quote-name"]')?.textContent).toBe("Full name");

    const message = byId(page, "quote-message") as HTMLTextAreaElement;
    expect(message.tagName).toBe("TEXTAREA");
    expect(message.value).toBe("Hi");
    expect(message.hasAttribute("aria-invalid")).toBe(false);
    expect(byId(page, "quote-message-error").hidden).toBe(true);

    const size = byId(page, "quote-size") as HTMLSelectElement;
    expect(size.value).toBe("small");
    expect(size.hasAttribute("aria-describedby")).toBe(false);
  });
});

describe("CheckboxField", () => {
  it("puts its label after the box, tied by id", () => {
    const page = render(
      <CheckboxField label="A dog may be loose" inputProps={{ id: "loose", name: "looseDog", defaultChecked: true }} />,
    );
    const box = byId(page, "loose") as HTMLInputElement;
    expect(box.type).toBe("checkbox");
    expect(box.checked).toBe(true);
    expect(page.querySelector('label[for="loose"]')?.textContent).toBe("A dog may be loose");
    expect(page.querySelector('[id="loose-error"]')).toBeNull();
  });

  it("renders a radio button and its error when told", () => {
    const page = render(
      <CheckboxField
        label="Other"
        errors={["Say what happened"]}
        inputProps={{ id: "r", name: "reason", type: "radio" }}
      />,
    );
    expect((byId(page, "r") as HTMLInputElement).type).toBe("radio");
    expect(byId(page, "r").getAttribute("aria-describedby")).toBe("r-error");
    expect(byId(page, "r-error").textContent).toBe("Say what happened");
  });
});

describe("ErrorList", () => {
  it("renders nothing without messages or an id", () => {
    expect(renderToString(<ErrorList errors={[null, ""]} />)).toBe("");
  });

  it("keeps an id'd element for the browser script, hidden while empty", () => {
    const page = render(<ErrorList id="signin-error" errors={undefined} />);
    expect(byId(page, "signin-error").hidden).toBe(true);
  });

  it("passes role and classes through", () => {
    const page = render(<ErrorList id="f-error" role="alert" className="x" errors={["Try again."]} />);
    const element = byId(page, "f-error");
    expect(element.getAttribute("role")).toBe("alert");
    expect(element.className).toBe("x");
    expect(element.textContent).toBe("Try again.");
  });
});
