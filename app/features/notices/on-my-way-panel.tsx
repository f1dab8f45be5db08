import { OnMyWayForm } from "./on-my-way-form";

export type OnMyWayView = {
  /** The button is offered: a scheduled visit of today, not sent yet. */
  canSend: boolean;
  sentAt: string | null;
  textsConfigured: boolean;
};

/** The admin's visit page: "On my way" (or when it was sent), and whether texts are set up. */
export function OnMyWayPanel({ visitId, view }: { visitId: string; view: OnMyWayView }) {
  if (!view.canSend && !view.sentAt && view.textsConfigured) return null;
  return (
    <section aria-labelledby="on-my-way-heading" className="mt-6">
      <h2 id="on-my-way-heading" className="text-xl font-semibold text-slate-900 dark:text-white">
        Notify the customer
      </h2>
      {view.sentAt || view.canSend ? <OnMyWayForm visitId={visitId} returnTo="visit" sentAt={view.sentAt} /> : null}
      {view.textsConfigured ? null : (
        <p className="mt-2 text-slate-700 dark:text-slate-200">
          Texts are not set up: customers get e-mails only. See the README, &ldquo;Text messages&rdquo;.
        </p>
      )}
    </section>
  );
}
