/** What a yard profile shows to the customer and to admins (the only people who get one). */
export type YardView = {
  street: string | null;
  city: string | null;
  zip: string | null;
  gateCode: string | null;
  gateLocation: string | null;
  dogCount: number;
  dogNames: string | null;
  looseDog: boolean;
  hazards: string | null;
  accessNotes: string | null;
  notifyVisitEmails: boolean;
  /** E.164; shown to the customer and staff only. */
  mobilePhone: string | null;
  textVisits: boolean;
};

/**
 * The yard's facts as a description list. The gate code stays hidden until "Show gate code" is
 * pressed: a native <details>, so it works without JavaScript and never needs a URL parameter.
 * `gateCode`: what stands in the code's place for a viewer who must ask for it (decision 128).
 */
export function YardDetails({
  yard,
  idPrefix = "yard",
  gateCode,
}: {
  yard: YardView | null;
  idPrefix?: string;
  gateCode?: React.ReactNode;
}) {
  if (!yard) return <p className="mt-2 text-slate-700 dark:text-slate-200">No yard profile yet.</p>;
  const address = [yard.street, yard.city, yard.zip].filter(Boolean).join(", ");
  return (
    <dl className="mt-3 grid gap-x-8 gap-y-3 sm:grid-cols-2">
      <Item term="Address">{address || "Not given"}</Item>
      <Item term="Gate code">
        {gateCode ? (
          gateCode
        ) : yard.gateCode ? (
          <details id={`${idPrefix}-gate`}>
            <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-800 underline underline-offset-4 dark:text-brand-200">
              <span aria-hidden="true" className="mr-2 tracking-widest no-underline">
                ••••
              </span>
              Show gate code
            </summary>
            <p className="font-mono text-lg">{yard.gateCode}</p>
          </details>
        ) : (
          "None"
        )}
      </Item>
      <Item term="Gate location">{yard.gateLocation || "Not given"}</Item>
      <Item term="Dogs">
        {yard.dogCount}
        {yard.dogNames ? ` (${yard.dogNames})` : ""}
      </Item>
      <Item term="A dog may be loose in the yard">{yard.looseDog ? "Yes" : "No"}</Item>
      <Item term="Other hazards">{yard.hazards || "None"}</Item>
      <Item term="Access notes">{yard.accessNotes || "None"}</Item>
      <Item term="Visit e-mails">{yard.notifyVisitEmails ? "On" : "Off"}</Item>
      <Item term="Mobile number">{yard.mobilePhone || "Not given"}</Item>
      <Item term="Visit texts">{yard.textVisits ? "On" : "Off"}</Item>
    </dl>
  );
}

function Item({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="font-semibold text-slate-900 dark:text-white">{term}</dt>
      <dd className="mt-1 whitespace-pre-wrap text-slate-800 dark:text-slate-100">{children}</dd>
    </div>
  );
}
