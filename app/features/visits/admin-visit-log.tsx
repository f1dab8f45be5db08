import { h3Class, type AdminVisitData } from "./admin-visit-view";

/** The e-mails sent (or not) to the customer about this visit, with their outbox status. */
export function AdminVisitEmails({ emails }: Pick<AdminVisitData, "emails">) {
  return (
    <section aria-labelledby="emails-heading" className="mt-8">
      <h3 id="emails-heading" className={h3Class}>
        E-mails to the customer
      </h3>
      {emails.length === 0 ? (
        <p className="mt-2">None yet.</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {emails.map((email) => (
            <li key={email.id}>
              <span className="font-semibold">{email.subject}</span>: {email.status}
              {email.sentAt ? ` ${email.sentAt}` : ""}
              {email.attempts > 0 ? ` (${email.attempts} attempt${email.attempts === 1 ? "" : "s"})` : ""}
              {email.error ? <span className="block text-sm">{email.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The visit's history: who changed what, newest first. */
export function AdminVisitHistory({ history }: Pick<AdminVisitData, "history">) {
  return (
    <section aria-labelledby="history-heading" className="mt-8">
      <h3 id="history-heading" className={h3Class}>
        History
      </h3>
      {history.length === 0 ? (
        <p className="mt-2">No changes yet.</p>
      ) : (
        <ol className="mt-2 space-y-2">
          {history.map((event) => (
            <li key={event.id}>
              <time dateTime={event.at}>{event.when}</time>, {event.who}: {event.what}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
