import { checkClass, hintClass, inputClass, labelClass } from "~/components/ui-classes";
import { CANCEL_NOTE_MAX, CANCEL_REASONS, CANCEL_REASON_LABELS } from "./plan-constants";

/**
 * "Why are you leaving?" on the customer's and the admin's cancel forms (decision 130): optional,
 * radio buttons and a note, inside the form that cancels, so it works without JavaScript.
 */
export function CancelReasonFields({ idPrefix, question }: { idPrefix: string; question: string }) {
  return (
    <div className="w-full">
      <fieldset>
        <legend className={labelClass}>{question} (optional)</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {CANCEL_REASONS.map((reason) => (
            <label key={reason} className="flex items-center gap-2">
              <input
                type="radio"
                name="cancelReason"
                value={reason}
                id={`${idPrefix}-${reason}`}
                className={checkClass}
              />
              {CANCEL_REASON_LABELS[reason]}
            </label>
          ))}
        </div>
      </fieldset>
      <label htmlFor={`${idPrefix}-note`} className={`${labelClass} mt-3`}>
        Anything to add? (optional)
      </label>
      <textarea
        id={`${idPrefix}-note`}
        name="cancelNote"
        rows={2}
        maxLength={CANCEL_NOTE_MAX}
        className={inputClass}
        aria-describedby={`${idPrefix}-note-hint`}
      />
      <p id={`${idPrefix}-note-hint`} className={hintClass}>
        At most {CANCEL_NOTE_MAX} characters.
      </p>
    </div>
  );
}
