import { HEALTH_FLAG_LABELS, VET_ADVICE, type HealthFlag } from "./visit-constants";

/** The health observations of a visit, with the veterinarian advice whenever one is ticked. */
export function HealthNotesView({ flags, note }: { flags: readonly string[]; note: string | null }) {
  const ticked = flags.filter((flag): flag is HealthFlag => Object.hasOwn(HEALTH_FLAG_LABELS, flag));
  if (ticked.length === 0 && !note) return <p>No health observations.</p>;
  return (
    <div>
      {ticked.length > 0 ? (
        <ul className="list-disc pl-6">
          {ticked.map((flag) => (
            <li key={flag}>{HEALTH_FLAG_LABELS[flag]}</li>
          ))}
        </ul>
      ) : null}
      {note ? <p className="mt-2 whitespace-pre-wrap">{note}</p> : null}
      {ticked.length > 0 ? <p className="mt-2 font-semibold">{VET_ADVICE}</p> : null}
    </div>
  );
}
