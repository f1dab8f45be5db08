import type { CustomerFeedbackView } from "./customer-feedback.server";

/** The admin's customer page: the review request's day and the customer's private notes. */
export function CustomerFeedbackSection({
  feedback,
  headingClass,
}: {
  feedback: CustomerFeedbackView;
  headingClass: string;
}) {
  return (
    <section aria-labelledby="feedback-heading" className="mt-8">
      <h3 id="feedback-heading" className={headingClass}>
        Private notes and review
      </h3>
      <p className="mt-2">
        {feedback.reviewRequestedOn
          ? `Asked for a review on ${feedback.reviewRequestedOn}.`
          : "Not asked for a review yet."}
      </p>
      {feedback.notes.length === 0 ? (
        <p className="mt-2">No private notes from this customer.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
          {feedback.notes.map((note) => (
            <li key={note.id} className="py-2">
              <p className="text-sm text-slate-700 dark:text-slate-300">{note.sentAt}</p>
              <p className="whitespace-pre-line">{note.message}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
