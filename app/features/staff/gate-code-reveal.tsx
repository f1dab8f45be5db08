import { Form } from "@remix-run/react";
import { secondaryButtonClass } from "~/components/ui-classes";
import { GATE_CODE_INTENT } from "./gate-code-constants";

/**
 * "Show gate code" for a technician (decision 128): a plain POST, so it works without JavaScript
 * (the answer is the page with the code); with it, the same post reveals the code in place. The
 * code is never in the page before the press.
 */
export function GateCodeReveal({ revealed, busy }: { revealed: string | null; busy: boolean }) {
  if (revealed) {
    return (
      <p role="status" className="font-mono text-lg">
        <span className="sr-only">Gate code: </span>
        {revealed}
      </p>
    );
  }
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={GATE_CODE_INTENT} />
      <p>On file. Each view is recorded.</p>
      <button type="submit" disabled={busy} className={`${secondaryButtonClass} mt-2`}>
        Show gate code
      </button>
    </Form>
  );
}
