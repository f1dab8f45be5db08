import { type ReactNode } from "react";
import { BrowserScript } from "~/components/browser-script";
import { SpriteIcon } from "~/components/social-icon";
import { SWITCHES, TEXT_SIZE } from "~/utils/a11y-preferences";

// The display class is left out: the link shows first, the script swaps it for the button.
// Transitions stay utilities in the markup (browser tests find what moves by its class).
const triggerClass = "a11y-trigger transition-colors";
const TRIGGER_NAME = "Accessibility settings";

const DIALOG_ID = "a11y-dialog";
const TITLE_ID = "a11y-dialog-title";

/**
 * The floating accessibility button and its dialog (text size, Dark Mode, High Contrast,
 * Highlight Links, Reduce Motion, reset). With JavaScript off, and until its script has run,
 * the button is a plain link to the accessibility statement (it looks the same).
 *
 * React only renders this markup (no state, and `script`, the URL of
 * accessibility-panel.browser.ts from the root loader, never changes), so it never changes it
 * again; the behaviour is that plain browser script, cached, the same on pages that React
 * hydrates and on pages it does not (decisions 066, 068, 074). The script finds its controls by
 * their roles and order (the switches are SWITCHES, in order): the markup carries few hooks.
 */
export function AccessibilityPanel({ script }: { script: string | null | undefined }) {
  return (
    // A landmark of its own: until the script swaps the link for the button, axe's "region" rule
    // finds the link outside every landmark (a rare failure of the /auth axe check in CI).
    <aside data-a11y-panel="" aria-label="Accessibility">
      <a href="/accessibility" className={`${triggerClass} inline-flex`} aria-label={TRIGGER_NAME}>
        <AccessibilityIcon />
      </a>
      <button
        type="button"
        className={`${triggerClass} hidden`}
        aria-label={TRIGGER_NAME}
        aria-haspopup="dialog"
        aria-expanded="false"
        aria-controls={DIALOG_ID}
      >
        <AccessibilityIcon />
      </button>

      <dialog id={DIALOG_ID} aria-labelledby={TITLE_ID} className="a11y-dialog">
        {/* The content covers the whole dialog: a click on the <dialog> itself is the backdrop. */}
        <div className="p-5">
          <div className="a11y-head">
            <h2 id={TITLE_ID} className="text-xl font-bold">
              Accessibility
            </h2>
            <button type="button" data-a11y-close="" className="a11y-close" aria-label="Close accessibility settings">
              <svg viewBox="0 0 24 24" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>

          <TextSizeControl />

          <ul className="mt-5 space-y-2" aria-label="Display options">
            {SWITCHES.map((s) => (
              <li key={s.id}>
                <Switch>{s.label}</Switch>
              </li>
            ))}
          </ul>

          <button type="button" data-a11y-reset="" className="a11y-reset">
            Reset All Settings
          </button>
          <p role="status" className="sr-only" suppressHydrationWarning />
          <p className="mt-4 text-sm ink-muted">
            Your settings are saved in this browser and apply to every page of the site.
          </p>
        </div>
      </dialog>
      <BrowserScript src={script} />
    </aside>
  );
}

function TextSizeControl() {
  const labelId = "a11y-text-size-label";
  return (
    <div className="mt-5" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="font-semibold">
        Text size
      </p>
      {/* Decrease comes first, increase last: the script finds them in that order. */}
      <div className="a11y-size">
        <button type="button" className="step-button" aria-disabled="false" aria-label="Decrease text size">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M5 12h14" />
          </svg>
        </button>
        <output aria-live="polite" aria-atomic="true" data-testid="text-size-value">
          <span className="sr-only">Text size </span>
          <span data-a11y-size="" suppressHydrationWarning>
            {TEXT_SIZE.default}
          </span>
          %
        </output>
        <button type="button" className="step-button" aria-disabled="false" aria-label="Increase text size">
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M5 12h14M12 5v14" />
          </svg>
        </button>
      </div>
    </div>
  );
}

/**
 * Drawn from aria-checked, which the script sets: no class changes on a node React rendered.
 * The knob is the track's ::after (app/tailwind.css).
 */
function Switch({ children }: { children: ReactNode }) {
  return (
    <button type="button" role="switch" aria-checked="false" className="switch">
      {children}
      <span className="switch-track transition-colors" />
    </button>
  );
}

function AccessibilityIcon() {
  return <SpriteIcon id="a11y" />;
}
