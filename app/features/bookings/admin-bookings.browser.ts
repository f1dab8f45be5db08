/**
 * The Bookings page loaded as a document is static (decision 077): its forms post natively. A
 * booking's form posts once: a second press while the first post is on its way would only meet
 * the server's refusal ("This booking can no longer be cancelled"), so it is ignored and the
 * form's buttons say they are busy. Nothing is disabled: a disabled submitter would drop its
 * `intent` from the post. When the page runs inside React instead (reached by a client-side
 * navigation), React never executes this script and the page's <Form>s do the same.
 */
const forms = () => document.querySelectorAll<HTMLFormElement>("form[data-booking-form]");

function setBusy(form: HTMLFormElement, busy: boolean) {
  if (busy) form.setAttribute("aria-busy", "true");
  else form.removeAttribute("aria-busy");
  for (const button of form.querySelectorAll("button")) {
    if (busy) button.setAttribute("aria-disabled", "true");
    else button.removeAttribute("aria-disabled");
  }
}

for (const form of forms()) {
  form.addEventListener("submit", (event) => {
    if (form.getAttribute("aria-busy") === "true") {
      event.preventDefault();
      return;
    }
    setBusy(form, true);
  });
}

// Back to this page from the next one (the back/forward cache keeps the page as it was left):
// the post it was waiting for is long answered.
window.addEventListener("pageshow", (event) => {
  if (event.persisted) for (const form of forms()) setBusy(form, false);
});
