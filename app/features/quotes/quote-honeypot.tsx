import { HONEYPOT_FIELD } from "./quote-schema";

/**
 * A text field that only bots see and fill (isHoneypotSpam refuses the post then). `hidden`
 * keeps it from people and assistive technology alike; aria-hidden also tells the forms' script
 * to skip it (form-enhancement.ts). "off" is the valid way to ask browsers not to fill it in.
 */
export function QuoteHoneypot() {
  return (
    <div hidden aria-hidden="true">
      <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
    </div>
  );
}
