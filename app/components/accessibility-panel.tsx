import { type ReactNode } from "react";
import { BrowserScript } from "~/components/browser-script";
import { SpriteIcon } from "~/components/social-icon";
import { SWITCHES, TEXT_SIZE } from "~/utils/a11y-preferences";

// The display class is left out: the link shows first, the script swaps it for the button.
// Transitions stay utilities in the markup (browser tests find what moves by its class).
const triggerClass = "a11y-trigger transition-colors";

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
 * hydrates and on pages it does not (decisions 066, 068, 074).
 */
export function AccessibilityPanel({ script }: { script: string | null | undefined }) {
  return (
    <div data-a11y-panel="">
      <a href="/accessibility" className={`${triggerClass} inline-flex`} data-testid="a11y-trigger" data-a11y-link="">
        <AccessibilityIcon />
        <span className="sr-only">Accessibility settings</span>
      </a>
      <button
        type="button"
        className={`${triggerClass} hidden`}
        aria-haspopup="dialog"
        aria-expanded="false"
        aria-controls={DIALOG_ID}
        data-a11y-button=""
      >
        <AccessibilityIcon />
        <span className="sr-only">Accessibility settings</span>
      </button>

      <dialog id={DIALOG_ID} aria-labelledby={TITLE_ID} className="a11y-dialog">
        <div className="p-5">
          <div className="flex items-center justify-between gap-4">
            <h2 id={TITLE_ID} className="text-xl font-bold">
              Accessibility
            </h2>
            <button type="button" data-a11y-close="" className="a11y-close">
              <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
              <span className="sr-only">Close accessibility settings</span>
            </button>
          </div>

          <TextSizeControl />

          <ul className="mt-5 space-y-2" aria-label="Display options">
            {SWITCHES.map((s) => (
              <li key={s.id}>
                <Switch id={s.id}>{s.label}</Switch>
              </li>
            ))}
          </ul>

          <button type="button" data-a11y-reset="" className="a11y-reset">
            Reset All Settings
          </button>
          <p role="status" className="sr-only" data-a11y-status="" suppressHydrationWarning />
          <p className="mt-4 text-sm ink-muted">
            Your settings are saved in this browser and apply to every page of the site.
          </p>
        </div>
      </dialog>
      <BrowserScript src={script} />
    </div>
  );
}

function TextSizeControl() {
  const labelId = "a11y-text-size-label";
  const stepClass = "step-button";
  return (
    <div className="mt-5" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="font-semibold">
        Text size
      </p>
      <div className="mt-2 flex items-center justify-between gap-3 rounded-xl border border-slate-300 p-2 dark:border-slate-600">
        <button type="button" className={stepClass} aria-disabled="false" data-a11y-step="-1">
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
            <path d="M5 12h14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
          <span className="sr-only">Decrease text size</span>
        </button>
        <output
          aria-live="polite"
          aria-atomic="true"
          className="text-lg font-bold tabular-nums"
          data-testid="text-size-value"
        >
          <span className="sr-only">Text size </span>
          <span data-a11y-size="" suppressHydrationWarning>
            {TEXT_SIZE.default}
          </span>
          %
        </output>
        <button type="button" className={stepClass} aria-disabled="false" data-a11y-step="1">
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
            <path d="M5 12h14M12 5v14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
          <span className="sr-only">Increase text size</span>
        </button>
      </div>
    </div>
  );
}

/** Drawn from aria-checked, which the script sets: no class changes on a node React rendered. */
function Switch({ id, children }: { id: string; children: ReactNode }) {
  return (
    <button type="button" role="switch" aria-checked="false" data-a11y-switch={id} className="a11y-switch group switch">
      <span>{children}</span>
      <span aria-hidden="true" className="a11y-switch-track switch-track transition-colors">
        <span className="a11y-switch-knob switch-knob transition-transform" />
      </span>
    </button>
  );
}

function AccessibilityIcon() {
  return <SpriteIcon id="a11y" className="h-7 w-7" />;
}
