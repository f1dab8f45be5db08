import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import {
  applyPreferences,
  canDecreaseTextSize,
  canIncreaseTextSize,
  DEFAULT_PREFERENCES,
  readPreferences,
  stepTextSize,
  STORAGE_KEYS,
  storedValue,
  SWITCHES,
  TEXT_SIZE_KEY,
  type A11yPreferences,
  type SwitchId,
} from "~/utils/a11y-preferences";

// Storage can be missing or throw (private modes, blocked cookies): settings then last for the page.
function storageGet(key: string) {
  return window.localStorage.getItem(key);
}
function storageSet(key: string, value: string | null) {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the setting still applies to this page.
  }
}

const triggerClass =
  "fixed bottom-4 right-4 z-50 inline-flex h-14 w-14 items-center justify-center rounded-full bg-brand-700 text-white shadow-lg ring-2 ring-white transition-colors hover:bg-brand-800 dark:bg-brand-300 dark:text-brand-950 dark:ring-slate-950 dark:hover:bg-brand-200 print:hidden";

/**
 * The floating accessibility button and its dialog (text size, Dark Mode, High Contrast,
 * Highlight Links, Reduce Motion, reset). Before hydration, and with JavaScript off, the button
 * is a plain link to the accessibility statement.
 */
export function AccessibilityPanel() {
  const [enhanced, setEnhanced] = useState(false);
  const [open, setOpen] = useState(false);
  const [prefs, setPrefs] = useState<A11yPreferences>(DEFAULT_PREFERENCES);
  const [status, setStatus] = useState("");
  const dialogRef = useRef<HTMLDialogElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  const titleId = `${id}-title`;
  const dialogId = `${id}-dialog`;

  // The head script has already applied the saved settings; read them, do not fight them.
  useEffect(() => {
    const sync = () => setPrefs(readPreferences(storageGet));
    sync();
    setEnhanced(true);
    // Another tab changed a setting: follow it here too.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && !STORAGE_KEYS.includes(event.key)) return;
      const next = readPreferences(storageGet);
      applyPreferences(document.documentElement, next);
      setPrefs(next);
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const update = useCallback((next: A11yPreferences, changedKey: string) => {
    applyPreferences(document.documentElement, next);
    storageSet(changedKey, storedValue(next, changedKey));
    setPrefs(next);
    setStatus("");
  }, []);

  const changeTextSize = (direction: 1 | -1) => {
    const allowed = direction === 1 ? canIncreaseTextSize(prefs.textSize) : canDecreaseTextSize(prefs.textSize);
    if (!allowed) return;
    update({ ...prefs, textSize: stepTextSize(prefs.textSize, direction) }, TEXT_SIZE_KEY);
  };

  const toggle = (switchId: SwitchId) => {
    const s = SWITCHES.find((candidate) => candidate.id === switchId)!;
    update({ ...prefs, [switchId]: !prefs[switchId] }, s.storageKey);
  };

  const reset = () => {
    applyPreferences(document.documentElement, DEFAULT_PREFERENCES);
    for (const key of STORAGE_KEYS) storageSet(key, null);
    setPrefs(DEFAULT_PREFERENCES);
    setStatus("All settings have been reset.");
  };

  const openDialog = () => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    setStatus("");
    dialog.showModal();
    setOpen(true);
  };

  const closeDialog = () => dialogRef.current?.close();

  // Escape (the native cancel), the close button and a backdrop click all end in "close".
  const onClose = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  // showModal makes the page inert; this keeps Tab cycling inside the dialog instead of
  // escaping to the browser's own toolbar after the last control.
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Tab" || !dialogRef.current) return;
    const focusables = [...dialogRef.current.querySelectorAll<HTMLElement>("button:not([disabled]), a[href]")];
    if (focusables.length === 0) return;
    const first = focusables[0];
    const last = focusables[focusables.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <>
      {enhanced ? (
        <button
          ref={triggerRef}
          type="button"
          className={triggerClass}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={dialogId}
          onClick={openDialog}
          data-testid="a11y-trigger"
        >
          <AccessibilityIcon />
          <span className="sr-only">Accessibility settings</span>
        </button>
      ) : (
        <a href="/accessibility" className={triggerClass} data-testid="a11y-trigger">
          <AccessibilityIcon />
          <span className="sr-only">Accessibility settings</span>
        </a>
      )}

      {/* A native dialog's close and click-outside events are its own; jsx-a11y does not know them. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <dialog
        ref={dialogRef}
        id={dialogId}
        aria-labelledby={titleId}
        onClose={onClose}
        onKeyDown={onKeyDown}
        // A click on the backdrop lands on the <dialog> itself; the panel's content covers the rest.
        onClick={(event) => {
          if (event.target === dialogRef.current) closeDialog();
        }}
        className="inset-auto bottom-[5.5rem] right-4 m-0 max-h-[calc(100dvh-7rem)] w-[min(24rem,calc(100vw-2rem))] overflow-y-auto rounded-2xl border border-slate-300 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/40 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="p-5">
          <div className="flex items-center justify-between gap-4">
            <h2 id={titleId} className="text-xl font-bold">
              Accessibility
            </h2>
            <button
              type="button"
              onClick={closeDialog}
              className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
                <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
              <span className="sr-only">Close accessibility settings</span>
            </button>
          </div>

          <TextSizeControl size={prefs.textSize} onChange={changeTextSize} />

          <ul className="mt-5 space-y-2" aria-label="Display options">
            {SWITCHES.map((s) => (
              <li key={s.id}>
                <Switch checked={prefs[s.id]} onToggle={() => toggle(s.id)}>
                  {s.label}
                </Switch>
              </li>
            ))}
          </ul>

          <button
            type="button"
            onClick={reset}
            className="mt-5 inline-flex min-h-11 w-full items-center justify-center rounded-full border-2 border-brand-700 px-5 py-2 font-semibold text-brand-800 hover:bg-brand-50 dark:border-brand-300 dark:text-brand-100 dark:hover:bg-brand-900"
          >
            Reset All Settings
          </button>
          <p role="status" className="sr-only">
            {status}
          </p>
          <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
            Your settings are saved in this browser and apply to every page of the site.
          </p>
        </div>
      </dialog>
    </>
  );
}

function TextSizeControl({ size, onChange }: { size: number; onChange: (direction: 1 | -1) => void }) {
  const labelId = useId();
  const canDecrease = canDecreaseTextSize(size);
  const canIncrease = canIncreaseTextSize(size);
  // aria-disabled rather than disabled: a button that disables itself under the keyboard
  // would drop focus out of the dialog.
  const stepClass =
    "inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full border-2 border-slate-400 text-slate-900 hover:bg-slate-100 aria-disabled:cursor-not-allowed aria-disabled:border-dashed aria-disabled:text-slate-500 aria-disabled:hover:bg-transparent dark:border-slate-500 dark:text-slate-100 dark:hover:bg-slate-800 dark:aria-disabled:text-slate-400";
  return (
    <div className="mt-5" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="font-semibold">
        Text size
      </p>
      <div className="mt-2 flex items-center justify-between gap-3 rounded-xl border border-slate-300 p-2 dark:border-slate-600">
        <button type="button" className={stepClass} aria-disabled={!canDecrease} onClick={() => onChange(-1)}>
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
          {size}%
        </output>
        <button type="button" className={stepClass} aria-disabled={!canIncrease} onClick={() => onChange(1)}>
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
            <path d="M5 12h14M12 5v14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
          <span className="sr-only">Increase text size</span>
        </button>
      </div>
    </div>
  );
}

function Switch({ checked, onToggle, children }: { checked: boolean; onToggle: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      onClick={onToggle}
      className="a11y-switch flex min-h-11 w-full items-center justify-between gap-4 rounded-xl px-3 py-2 text-left font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
    >
      <span>{children}</span>
      <span
        aria-hidden="true"
        className={`a11y-switch-track relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 transition-colors ${
          checked
            ? "border-brand-700 bg-brand-700 dark:border-brand-300 dark:bg-brand-300"
            : "border-slate-500 bg-slate-200 dark:border-slate-400 dark:bg-slate-700"
        }`}
      >
        <span
          className={`a11y-switch-knob inline-block h-5 w-5 rounded-full shadow transition-transform ${
            checked ? "translate-x-5 bg-white dark:bg-slate-950" : "translate-x-0.5 bg-white dark:bg-slate-200"
          }`}
        />
      </span>
    </button>
  );
}

function AccessibilityIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-7 w-7"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="4.5" r="1.75" fill="currentColor" stroke="none" />
      <path d="M5 8.5l7 1.5 7-1.5M12 10v4.5M12 14.5l-3.5 6M12 14.5l3.5 6" />
    </svg>
  );
}
