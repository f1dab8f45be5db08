import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { h2Class, mutedClass, sectionClass, type YourPlanData } from "./your-plan-view";
import { primaryButtonClass, secondaryButtonClass, tapLinkClass } from "~/components/ui-classes";
import { CancelReasonFields } from "./cancel-reason-fields";

/**
 * "Cancel plan", always confirmed ("Cancel your plan?"). With JavaScript the button opens a
 * modal dialog; without it the button is a link to `?cancel=confirm`, which renders the same
 * confirmation in the page (decision 095). Only "Yes, cancel my plan" posts.
 */
export function CancelPlan({
  planId,
  confirm,
  notice,
  credit,
  busy,
}: {
  planId: string;
  confirm: boolean;
  notice: YourPlanData["notice"];
  credit: YourPlanData["cancelCredit"];
  busy: boolean;
}) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const dialog = useRef<HTMLDialogElement>(null);
  const explanation = (
    <>
      <p className={`mt-2 ${mutedClass}`}>
        Visits less than {notice.hours} hours away still happen; every later visit is cancelled. To start again, call
        us.
      </p>
      <CancelCredit credit={credit} />
    </>
  );

  if (confirm) {
    return (
      <section aria-labelledby="cancel-heading" className={sectionClass}>
        <Confirmation headingId="cancel-heading" planId={planId} busy={busy} explanation={explanation}>
          <Link to="." className={tapLinkClass}>
            No, keep my plan
          </Link>
        </Confirmation>
      </section>
    );
  }

  return (
    <section aria-labelledby="cancel-plan-heading" className={sectionClass}>
      <h2 id="cancel-plan-heading" className={h2Class}>
        Cancel plan
      </h2>
      <p className={`mt-1 ${mutedClass}`}>No contract: you can cancel at any time.</p>
      {hydrated ? (
        <>
          <button type="button" className={`${secondaryButtonClass} mt-4`} onClick={() => dialog.current?.showModal()}>
            Cancel plan
          </button>
          <dialog
            ref={dialog}
            aria-labelledby="cancel-dialog-heading"
            className="w-[min(32rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 text-slate-900 shadow-xl backdrop:bg-black/60 dark:bg-slate-900 dark:text-white"
          >
            <Confirmation headingId="cancel-dialog-heading" planId={planId} busy={busy} explanation={explanation}>
              <button type="button" className={secondaryButtonClass} onClick={() => dialog.current?.close()}>
                No, keep my plan
              </button>
            </Confirmation>
          </dialog>
        </>
      ) : (
        <Link to="?cancel=confirm#cancel-heading" className={`${secondaryButtonClass} mt-4`}>
          Cancel plan
        </Link>
      )}
    </section>
  );
}

function Confirmation({
  headingId,
  planId,
  busy,
  explanation,
  children,
}: {
  headingId: string;
  planId: string;
  busy: boolean;
  explanation: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <>
      <h2 id={headingId} className={h2Class}>
        Cancel your plan?
      </h2>
      {explanation}
      <Form method="post" className="mt-4 flex flex-wrap items-center gap-4">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="planId" value={planId} />
        <CancelReasonFields idPrefix={`${headingId}-reason`} question="Why are you leaving?" />
        <button type="submit" disabled={busy} className={primaryButtonClass}>
          Yes, cancel my plan
        </button>
        {children}
      </Form>
    </>
  );
}

/**
 * What comes back on cancelling, and how (decision 115): the visits already paid for that the
 * cancellation ends, and skips not yet credited, as credit on file; computed by the cancellation's
 * own function, so the page and the credit note agree to the cent.
 */
function CancelCredit({ credit }: { credit: YourPlanData["cancelCredit"] }) {
  // A plan change not billed yet is billed on a final invoice with the cancellation (decision 120).
  const bills = credit?.bills ? (
    <p className="mt-2" data-testid="cancel-final-invoice">
      Your plan change not yet billed comes to {credit.bills}: a final invoice for it is made when you cancel.
    </p>
  ) : null;
  if (!credit?.amount) {
    return (
      <>
        <p className={`mt-2 ${mutedClass}`}>Nothing paid for is left to give back.</p>
        {bills}
      </>
    );
  }
  return (
    <>
      {bills}
      <p className="mt-2 font-medium text-slate-900 dark:text-white" data-testid="cancel-credit">
        {credit.amount} back as credit on file
        {credit.pays ? `: it first pays the ${credit.pays} you owe.` : "."} Ask us to refund it to your card.
      </p>
    </>
  );
}
