import { primaryButtonClass } from "~/components/ui-classes";

/** Where the "Text me again" form posts: Your Yard's own action, told apart by the query. */
export const TEXT_AGAIN_ACTION = "/customer-dashboard/yard?intent=text-again";

/**
 * Your Yard when the saved number replied STOP (docs/decisions/109): says so, and offers "Text
 * me again", a plain post (no JavaScript needed) that texts the number once; only its START
 * reply lets texts go again. The consent words are the ones of "Text me about my visits".
 */
export function TextAgainPanel({
  optOut,
  businessName,
}: {
  optOut: {
    phone: string;
    request: { askedAt: string; undelivered: boolean } | null;
    textStartTo: string | null;
  };
  businessName: string;
}) {
  const { phone, request, textStartTo } = optOut;
  const textStart = `Text START to ${textStartTo ?? "the number our texts come from"} from that phone.`;
  return (
    <section
      aria-labelledby="texts-off-heading"
      className="mt-6 rounded-lg border border-amber-700 bg-amber-50 p-4 text-slate-900 dark:border-amber-300 dark:bg-slate-900 dark:text-white"
    >
      <h2 id="texts-off-heading" className="text-xl font-semibold">
        Texts are off
      </h2>
      <p className="mt-2">{`${phone} replied STOP, so we do not text it.`}</p>
      {request ? (
        <p className="mt-2 font-medium" role="status">
          {request.undelivered
            ? `Our text to ${phone} could not be delivered while it is opted out. ${textStart}`
            : `You asked at ${request.askedAt}: reply START to the text we sent to ${phone} to get texts about your visits again.`}
        </p>
      ) : null}
      {/* A plain form, like "On my way": it posts and redirects back with a toast, no script needed. */}
      <form method="post" action={TEXT_AGAIN_ACTION} className="mt-3">
        <p className="text-sm text-slate-700 dark:text-slate-200">
          {`We will text ${phone} once. Reply START to it to get texts again. By replying START you agree to receive automated text messages from ${businessName} at this number when your technician is on the way. About one message per visit. Consent is not a condition of service. Message and data rates may apply. Reply STOP to opt out, HELP for help.`}
        </p>
        <button type="submit" className={`${primaryButtonClass} mt-3`}>
          Text me again
        </button>
      </form>
    </section>
  );
}
